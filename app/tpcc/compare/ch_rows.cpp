// SPDX-License-Identifier: Apache-2.0
// app/tpcc/compare/ch_rows.cpp: the analytic rows of a comparison (see ch_rows.hpp).
#include "compare/ch_rows.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "report/confidence.hpp"

namespace tpcc::compare {
namespace {

// "Q5 p90": query `n` and what of it (append, not operator+ on a temporary: g++ 12 warns a
// false -Wrestrict on `"Q" + std::to_string(n)`).
std::string ch_query_figure(std::size_t n, const char* what) {
  return std::string("Q").append(std::to_string(n)).append(what);
}

row ch_rate_row(std::string figure, bool gated, const run::run_result& a, const run::run_result& b,
                std::size_t n) {
  return {.figure = std::move(figure),
          .unit = "qph",
          .gated = gated,
          .a = queries_per_hour(a, n),
          .b = queries_per_hour(b, n)};
}

estimate ch_latency(const run::run_result& r, std::size_t n, double fraction, double lateness) {
  if (!r.ch.ran()) return {};
  return percentile_ms(r.ch.queries[n - 1].latency, fraction, lateness);
}

row ch_latency_row(std::size_t n, double fraction, const run::run_result& a, double lateness_a,
                   const run::run_result& b, double lateness_b) {
  return {.figure = ch_query_figure(n, fraction == 0.5 ? " p50" : " p90"),
          .unit = "ms",
          .higher_is_better = false,
          .a = ch_latency(a, n, fraction, lateness_a),
          .b = ch_latency(b, n, fraction, lateness_b)};
}

}  // namespace

estimate queries_per_hour(const run::run_result& r, std::size_t n) {
  if (!r.ch.ran() || r.measured_seconds <= 0) return {};
  const std::uint64_t count = n == 0 ? r.ch.completed() : r.ch.queries[n - 1].completed;
  const double c = static_cast<double>(count);
  const double per_hour = 3600.0 / r.measured_seconds;
  const double half = report::z_verdict * std::sqrt(std::max(c, 1.0));
  return {c * per_hour, {std::max(0.0, c - half) * per_hour, (c + half) * per_hour}, true};
}

std::optional<row> qphh_row(const run::run_result& a, const run::run_result& b) {
  if (!a.ch.ran() && !b.ch.ran()) return std::nullopt;
  return ch_rate_row("QphH", true, a, b, 0);
}

std::vector<row> ch_query_rows(const run::run_result& a, double lateness_a_ms,
                               const run::run_result& b, double lateness_b_ms) {
  std::vector<row> out;
  if (!a.ch.ran() && !b.ch.ran()) return out;
  for (std::size_t n = 1; n <= run::ch_query_count; ++n) {
    out.push_back(ch_rate_row(ch_query_figure(n, " qph"), false, a, b, n));
    for (const double f : {0.5, 0.9}) {
      out.push_back(ch_latency_row(n, f, a, lateness_a_ms, b, lateness_b_ms));
    }
  }
  return out;
}

}  // namespace tpcc::compare
