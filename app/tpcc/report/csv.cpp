// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/csv.cpp: the series as CSV (see csv.hpp).
#include "report/csv.hpp"

#include "report/ch_csv.hpp"
#include "report/ch_series_csv.hpp"
#include "report/endpoints_csv.hpp"
#include "report/json_detail.hpp"
#include "report/server_csv.hpp"
#include "report/servers.hpp"
#include "report/text.hpp"
#include "report/text_file.hpp"
#include "txn/kind.hpp"

namespace tpcc::report {
namespace {

std::string header() {
  std::string out = "start_s,end_s,phase,type";
  for (const stats::outcome_info& i : stats::outcome_table) out.append(",").append(i.key);
  return out + ",completed,failures,retries,p50_ms,p90_ms,p99_ms,max_ms,tpmc,tpm_total\r\n";
}

// ",p50,p90,p99,max" in milliseconds, or four empty cells.
std::string percentiles(const stats::sparse_histogram& response) {
  if (response.count() == 0) return ",,,,";
  const stats::histogram h = response.expand();
  std::string out;
  for (const double f : {0.5, 0.9, 0.99}) {
    out += format(",%.3f", static_cast<double>(h.percentile(f)) / 1000.0);
  }
  return out + format(",%.3f", static_cast<double>(h.max()) / 1000.0);
}

// ",tpmC,tpmTotal" of the interval (report/summary.hpp's rules: completed per minute), the same
// on each of its rows.
std::string interval_rates(const stats::interval_sample& s) {
  const double minutes = (s.end_seconds - s.start_seconds) / 60.0;
  if (minutes <= 0) return ",,";
  std::uint64_t all = 0;
  for (const stats::interval_kind& t : s.kinds) all += t.outcomes.completed();
  const auto& no = s.kinds[txn::index(txn::kind::new_order)];
  return format(",%.2f,%.2f", static_cast<double>(no.outcomes.completed()) / minutes,
                static_cast<double>(all) / minutes);
}

std::string row(const stats::interval_sample& s, txn::kind k) {
  const stats::interval_kind& t = s.kinds[txn::index(k)];
  std::string out = format("%.3f,%.3f,%s,%s", s.start_seconds, s.end_seconds,
                           stats::to_string(s.in), std::string(txn::name(k)).c_str());
  for (const stats::outcome_info& i : stats::outcome_table) {
    out += format(",%llu", static_cast<unsigned long long>(t.outcomes[i.outcome]));
  }
  out += format(",%llu,%llu,%llu", static_cast<unsigned long long>(t.outcomes.completed()),
                static_cast<unsigned long long>(t.outcomes.failures()),
                static_cast<unsigned long long>(t.retries));
  return out + percentiles(t.response) + interval_rates(s) + "\r\n";
}

// A field as RFC 4180 wants it: quoted, quotes doubled, when it holds a comma, a quote or a
// line break.
std::string field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) out.append(c == '"' ? "\"\"" : std::string(1, c));
  return out + "\"";
}

}  // namespace

std::string format_errors_csv(const run::run_result& r) {
  std::string out = "type,sqlstate,outcome,statement,message,count,first,last\r\n";
  for (const stats::error_entry& e : r.errors.entries) {
    out += field(std::string(txn::name(e.kind))) + "," + field(e.sqlstate) + "," +
           field(e.outcome) + "," + field(e.statement) + "," + field(e.message) + "," +
           std::to_string(e.count) + "," + detail::iso_utc(e.first) + "," +
           detail::iso_utc(e.last) + "\r\n";
  }
  return out + "unlisted,,,,," + std::to_string(r.errors.unlisted) + ",,\r\n";
}

std::string errors_csv_path(const std::string& csv_path) {
  const std::string suffix = ".csv";
  const bool csv = csv_path.size() > suffix.size() &&
                   csv_path.compare(csv_path.size() - suffix.size(), suffix.size(), suffix) == 0;
  return (csv ? csv_path.substr(0, csv_path.size() - suffix.size()) : csv_path) + ".errors.csv";
}

std::string format_csv(const run::run_result& r) {
  std::string out = header();
  for (const stats::interval_sample& s : r.series) {
    for (const txn::kind k : txn::all_kinds) out += row(s, k);
  }
  return out;
}

std::optional<std::string> write_csv(const run::run_result& r, const std::string& path) {
  if (auto failed = write_text_file(path, format_csv(r), "the CSV series")) return failed;
  for (const named_server& s : servers_of(r)) {
    if (!s.figures->collected()) continue;
    auto failed = write_text_file(server_csv_path(path, s.index), format_server_csv(*s.figures),
                                  "the CSV of the server's figures");
    if (failed) return failed;
  }
  if (!r.endpoints.empty()) {
    auto failed = write_text_file(endpoints_csv_path(path), format_endpoints_csv(r),
                                  "the CSV of the endpoints");
    if (failed) return failed;
    failed = write_text_file(endpoint_series_csv_path(path), format_endpoint_series_csv(r),
                             "the CSV of the endpoints' series");
    if (failed) return failed;
  }
  if (r.ch.ran()) {
    auto failed =
        write_text_file(ch_csv_path(path), format_ch_csv(r), "the CSV of the analytic queries");
    if (failed) return failed;
  }
  if (r.ch.ran() && !r.ch.series.empty()) {
    auto failed = write_text_file(ch_series_csv_path(path), format_ch_series_csv(r),
                                  "the CSV of the analytic series");
    if (failed) return failed;
  }
  return write_text_file(errors_csv_path(path), format_errors_csv(r), "the CSV of errors");
}

}  // namespace tpcc::report
