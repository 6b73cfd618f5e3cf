// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/ch_csv.cpp: the per-query table as CSV (see ch_csv.hpp).
#include "report/ch_csv.hpp"

#include <cstddef>

#include "report/csv.hpp"
#include "report/text.hpp"

namespace tpcc::report {
namespace {

std::string ch_csv_ms(double micros) { return format("%.3f", micros / 1000.0); }

// ",p50,p90,p99,max,mean" in milliseconds, or five empty cells.
std::string ch_csv_latency(const stats::histogram& h) {
  if (h.count() == 0) return ",,,,,";
  std::string out;
  for (const double f : {0.5, 0.9, 0.99}) {
    out.append(",").append(ch_csv_ms(static_cast<double>(h.percentile(f))));
  }
  out.append(",").append(ch_csv_ms(static_cast<double>(h.max())));
  return out.append(",").append(ch_csv_ms(h.mean()));
}

std::string ch_csv_per_hour(std::uint64_t completed, double measured_seconds) {
  if (measured_seconds <= 0) return "0";
  return format("%.2f", static_cast<double>(completed) * 3600.0 / measured_seconds);
}

std::string ch_csv_row(std::size_t index, const run::ch_query_totals& q, double seconds) {
  std::string out = format(
      "%zu,%llu,%llu,%llu", index + 1, static_cast<unsigned long long>(q.completed),
      static_cast<unsigned long long>(q.failed), static_cast<unsigned long long>(q.cancelled));
  out += ch_csv_latency(q.latency);
  out.append(",").append(q.last_rows < 0 ? std::string() : std::to_string(q.last_rows));
  return out.append(",").append(ch_csv_per_hour(q.completed, seconds)).append("\r\n");
}

}  // namespace

std::string format_ch_csv(const run::run_result& r) {
  std::string out =
      "query,completed,failed,cancelled,p50_ms,p90_ms,p99_ms,max_ms,mean_ms,last_rows,"
      "queries_per_hour\r\n";
  const run::ch_totals& c = r.ch;
  for (std::size_t i = 0; i < c.queries.size(); ++i) {
    out += ch_csv_row(i, c.queries[i], r.measured_seconds);
  }
  out += format("all,%llu,%llu,%llu,,,,,,,", static_cast<unsigned long long>(c.completed()),
                static_cast<unsigned long long>(c.failed()),
                static_cast<unsigned long long>(c.cancelled()));
  return out.append(ch_csv_per_hour(c.completed(), r.measured_seconds)).append("\r\n");
}

std::string ch_csv_path(const std::string& csv_path) {
  std::string stem = errors_csv_path(csv_path);  // "<stem>.errors.csv"
  stem.resize(stem.size() - std::string(".errors.csv").size());
  return stem + ".ch.csv";
}

}  // namespace tpcc::report
