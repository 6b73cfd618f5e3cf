// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/ch_series_csv.cpp: the analytic series as CSV (see ch_series_csv.hpp).
#include "report/ch_series_csv.hpp"

#include "report/ch_csv.hpp"
#include "report/text.hpp"

namespace tpcc::report {
namespace {

std::string ch_series_csv_row(const run::ch_interval& i) {
  const double seconds = i.end_seconds - i.start_seconds;
  std::string out = format("%.3f,%.3f,%llu,%llu,%llu,", i.start_seconds, i.end_seconds,
                           static_cast<unsigned long long>(i.completed),
                           static_cast<unsigned long long>(i.failed),
                           static_cast<unsigned long long>(i.cancelled));
  if (i.completed > 0) out += format("%.3f", static_cast<double>(i.p90_us) / 1000.0);
  out += ",";
  if (seconds > 0) out += format("%.2f", static_cast<double>(i.completed) * 3600.0 / seconds);
  return out + "\r\n";
}

}  // namespace

std::string format_ch_series_csv(const run::run_result& r) {
  std::string out = std::string("start_s,end_s,completed,failed,cancelled,")
                        .append(r.ch.series_p90_max_of_shards ? "p90_ms_max_of_shards" : "p90_ms")
                        .append(",queries_per_hour\r\n");
  for (const run::ch_interval& i : r.ch.series) out += ch_series_csv_row(i);
  return out;
}

std::string ch_series_csv_path(const std::string& csv_path) {
  std::string stem = ch_csv_path(csv_path);  // "<stem>.ch.csv"
  stem.resize(stem.size() - std::string(".ch.csv").size());
  return stem + ".ch_series.csv";
}

}  // namespace tpcc::report
