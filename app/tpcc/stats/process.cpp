// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/process.cpp: getrusage, /proc/self/status, the thread CPU clock (see
// process.hpp).
#include "stats/process.hpp"

#include <sys/resource.h>

#include <ctime>
#include <fstream>
#include <string>

namespace tpcc::stats {
namespace {

double seconds(const timeval& t) {
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
}

// "VmRSS:	   12345 kB" -> bytes, for the line starting with `key`.
bool read_kib(const std::string& line, const std::string& key, std::uint64_t& bytes) {
  if (line.rfind(key, 0) != 0) return false;
  bytes = std::stoull(line.substr(key.size())) * 1024;
  return true;
}

}  // namespace

process_usage read_process_usage() {
  process_usage u;
  rusage r{};
  if (getrusage(RUSAGE_SELF, &r) == 0) u.cpu_seconds = seconds(r.ru_utime) + seconds(r.ru_stime);
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (read_kib(line, "VmRSS:", u.rss_bytes)) continue;
    read_kib(line, "VmHWM:", u.peak_rss_bytes);
  }
  return u;
}

std::chrono::nanoseconds thread_cpu_time() noexcept {
  timespec t{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return std::chrono::nanoseconds(0);
  return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
}

}  // namespace tpcc::stats
