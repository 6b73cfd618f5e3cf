// app/tpcc/report/csv.cpp: the series as CSV (see csv.hpp).
#include "report/csv.hpp"

#include "report/text.hpp"
#include "report/text_file.hpp"
#include "txn/kind.hpp"

namespace tpcc::report {
namespace {

std::string header() {
  std::string out = "start_s,end_s,phase,type";
  for (const stats::outcome_info& i : stats::outcome_table) out.append(",").append(i.key);
  return out + ",completed,failures,retries,p50_ms,p90_ms,p99_ms,max_ms\r\n";
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
  return out + percentiles(t.response) + "\r\n";
}

}  // namespace

std::string format_csv(const run::run_result& r) {
  std::string out = header();
  for (const stats::interval_sample& s : r.series) {
    for (const txn::kind k : txn::all_kinds) out += row(s, k);
  }
  return out;
}

std::optional<std::string> write_csv(const run::run_result& r, const std::string& path) {
  return write_text_file(path, format_csv(r), "the CSV series");
}

}  // namespace tpcc::report
