// SPDX-License-Identifier: Apache-2.0
// app/tpcc/terminal/delivery_log.cpp: the deferred Delivery result file (see delivery_log.hpp).
#include "terminal/delivery_log.hpp"

#include <array>
#include <ctime>

namespace tpcc::terminal {
namespace {

using std::chrono::system_clock;

constexpr const char* heading =
    "# shoal-tpcc deferred Delivery results (TPC-C clause 2.7.2.3): queue time, completion "
    "time, warehouse, carrier, and per district the O_ID delivered or skipped\n";

std::string districts(const txn::delivery_output& out) {
  std::string text;
  for (std::size_t d = 0; d < txn::districts_per_warehouse; ++d) {
    const std::int64_t o_id = out.delivered_o_id[d];
    text.append(" d").append(std::to_string(d + 1)).append("=");
    text.append(o_id == 0 ? std::string("skipped") : std::to_string(o_id));
  }
  return text;
}

const char* status(delivery_log::ending how) {
  return how == delivery_log::ending::failed ? " status=failed" : " status=abandoned";
}

}  // namespace

std::variant<std::unique_ptr<delivery_log>, std::string> delivery_log::create(
    const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) return "cannot write the Delivery result file " + path;
  return std::unique_ptr<delivery_log>(new delivery_log(file, path));
}

delivery_log::delivery_log(std::FILE* file, std::string path)
    : file_(file),
      path_(std::move(path)),
      offset_(system_clock::now().time_since_epoch() -
              std::chrono::duration_cast<system_clock::duration>(
                  stats::clock::now().time_since_epoch())) {
  std::fputs(heading, file_);
}

delivery_log::~delivery_log() {
  if (file_ != nullptr) std::fclose(file_);
}

std::string delivery_log::wall(stats::clock::time_point t) const {
  const system_clock::time_point at(
      std::chrono::duration_cast<system_clock::duration>(t.time_since_epoch()) + offset_);
  const std::time_t seconds = system_clock::to_time_t(at);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch() %
                                                                            std::chrono::seconds(1))
                          .count();
  std::array<char, 80> text{};  // room for any int g++ sees (-Wformat-truncation)
  std::snprintf(text.data(), text.size(), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                static_cast<int>(millis));
  return text.data();
}

void delivery_log::write(stats::clock::time_point queued, stats::clock::time_point end,
                         std::int64_t w_id, std::int64_t carrier, ending how,
                         const txn::delivery_output& out) {
  std::string line = "queued=" + wall(queued) + " completed=" + wall(end);
  line.append(" w_id=").append(std::to_string(w_id));
  line.append(" carrier=").append(std::to_string(carrier));
  line.append(how == ending::completed ? districts(out) : std::string(status(how))).append("\n");
  const std::scoped_lock lock(mutex_);
  std::fputs(line.c_str(), file_);
}

std::optional<std::string> delivery_log::close() {
  const std::scoped_lock lock(mutex_);
  if (file_ == nullptr) return std::nullopt;
  const bool failed = std::ferror(file_) != 0;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (failed || !closed)
    return "writing the Delivery result file " + path_ + " failed (disk full?)";
  return std::nullopt;
}

}  // namespace tpcc::terminal
