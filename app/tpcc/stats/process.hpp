// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/process.hpp: what this process and the calling thread cost, read from the OS.
//
// What: read_process_usage() gives the process's CPU time (user + system, getrusage) and its
// resident set size now and at its peak (/proc/self/status VmRSS and VmHWM; 0 where the file
// cannot be read). thread_cpu_time() is the calling thread's own CPU time
// (CLOCK_THREAD_CPUTIME_ID): read on a worker thread, its growth over an interval of wall time
// is how busy that worker was.
// Thread-safety: any thread; each call reads the OS anew.
#pragma once

#include <chrono>
#include <cstdint>

namespace tpcc::stats {

struct process_usage {
  double cpu_seconds = 0;  // user + system since the process started
  std::uint64_t rss_bytes = 0;
  std::uint64_t peak_rss_bytes = 0;
};

[[nodiscard]] process_usage read_process_usage();
[[nodiscard]] std::chrono::nanoseconds thread_cpu_time() noexcept;

}  // namespace tpcc::stats
