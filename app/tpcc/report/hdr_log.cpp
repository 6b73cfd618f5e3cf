// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/hdr_log.cpp: the HdrHistogram interval log (see hdr_log.hpp).
#include "report/hdr_log.hpp"

#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string_view>

#include "report/hdr_encode.hpp"
#include "report/text_file.hpp"
#include "txn/kind.hpp"

namespace tpcc::report {
namespace {

constexpr std::array<std::string_view, txn::kind_count> tags{"NewOrder", "Payment", "OrderStatus",
                                                             "Delivery", "StockLevel"};

std::string epoch_seconds(std::chrono::system_clock::time_point t) {
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
  std::array<char, 64> b{};
  std::snprintf(b.data(), b.size(), "%.3f", static_cast<double>(ms) / 1000.0);
  return b.data();
}

std::string stamp_utc(std::chrono::system_clock::time_point t) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm parts{};
  gmtime_r(&seconds, &parts);
  std::array<char, 64> b{};
  std::strftime(b.data(), b.size(), "%Y-%m-%dT%H:%M:%SZ", &parts);
  return b.data();
}

std::string header(const run::run_result& r) {
  std::string out = "#shoal-tpcc interval log: values in microseconds, Interval_Max in ms; ";
  out.append(std::to_string(r.warehouses)).append(" warehouses, ");
  out.append(std::to_string(r.terminals)).append(" terminals\n");
  out += "#[Histogram log format version 1.3]\n";
  out.append("#[StartTime: ").append(epoch_seconds(r.started));
  out.append(" (seconds since epoch), ").append(stamp_utc(r.started)).append("]\n");
  out.append("#[BaseTime: ").append(epoch_seconds(r.started)).append(" (seconds since epoch)]\n");
  out +=
      "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n";
  return out;
}

void append_line(std::string& out, std::string_view tag, std::string_view view,
                 const stats::interval_sample& s, const stats::sparse_histogram& h) {
  std::array<char, 96> b{};
  std::snprintf(b.data(), b.size(), ",%.3f,%.3f,%.3f,", s.start_seconds,
                s.end_seconds - s.start_seconds, static_cast<double>(hdr::max_of(h)) / 1000.0);
  out.append("Tag=").append(tag).append("-").append(view).append(b.data());
  out.append(hdr::encode_compressed_base64(h)).append("\n");
}

}  // namespace

std::string format_hdr_log(const run::run_result& r) {
  std::string out = header(r);
  for (const stats::interval_sample& s : r.series) {
    for (const txn::kind k : txn::all_kinds) {
      const stats::interval_kind& v = s.kinds[txn::index(k)];
      append_line(out, tags[txn::index(k)], "response", s, v.response);
      append_line(out, tags[txn::index(k)], "queued", s, v.queued);
      append_line(out, tags[txn::index(k)], "service", s, v.service);
    }
  }
  return out;
}

std::optional<std::string> write_hdr_log(const run::run_result& r, const std::string& path) {
  return write_text_file(path, format_hdr_log(r), "the HdrHistogram log");
}

}  // namespace tpcc::report
