// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/rate.cpp: the --rate figures in words (see rate.hpp).
#include "report/rate.hpp"

#include "report/text.hpp"

namespace tpcc::report {
namespace {

std::string backlog_text(const stats::backlog& b) {
  return format("%llu intended start%s behind, the oldest %.1f s late",
                static_cast<unsigned long long>(b.behind), b.behind == 1 ? "" : "s",
                b.oldest_seconds);
}

// "offered 60000 tpm, achieved 59874 tpm (99.8 %)".
std::string offered_text(const run::run_result& r) {
  const double offered = r.config.rate_tpm;
  const double achieved = achieved_tpm(r);
  return format("offered %.0f tpm, achieved %.0f tpm (%.1f %%)", offered, achieved,
                offered > 0 ? achieved / offered * 100.0 : 0.0);
}

}  // namespace

double achieved_tpm(const run::run_result& r) {
  if (r.measured_seconds <= 0) return 0;
  std::uint64_t ended = 0;
  for (const stats::kind_totals& t : r.results.kinds) ended += t.outcomes.total();
  return static_cast<double>(ended) * 60.0 / r.measured_seconds;
}

std::string rate_mode_text(const run::run_result& r) {
  if (!r.paced()) return {};
  if (!r.config.schedule.empty()) {
    return format(
        "NOT TPC-C: --schedule of %zu rate steps, mean %.0f tpm (Poisson arrivals "
        "instead of keying and think times)",
        r.config.schedule.size(), r.config.rate_tpm);
  }
  return format("NOT TPC-C: --rate %.0f tpm (Poisson arrivals instead of keying and think times)",
                r.config.rate_tpm);
}

std::string rate_outcome_text(const run::run_result& r) {
  if (!r.paced()) return {};
  std::string out = offered_text(r);
  if (!r.pacing) return out + "; the backlog was not recorded";
  const stats::pace_totals& p = *r.pacing;
  if (p.grew()) {
    put(out, {"; the database did NOT keep up: the backlog grew to ", backlog_text(p.at_end),
              " at the window's end (at its start: ", backlog_text(p.at_start),
              "); latencies count from the intended starts, the waiting included"});
    return out;
  }
  put(out, {"; the database kept up (at the window's end ", backlog_text(p.at_end), ")"});
  return out;
}

std::string rate_summary_lines(const run::run_result& r) {
  if (!r.paced()) return {};
  std::string out = "  rate        " + offered_text(r);
  if (!r.pacing) return out + "\n";
  const stats::pace_totals& p = *r.pacing;
  out += format("; %llu intended starts in the window, the longest wait to begin %.3f s\n",
                static_cast<unsigned long long>(p.intended), p.max_lag_seconds);
  if (!p.grew()) {
    return out + "  kept up     yes: at the window's end " + backlog_text(p.at_end) + "\n";
  }
  put(out, {"  BACKLOG     the database did not keep up: ", backlog_text(p.at_end),
            " at the window's end (at its start: ", backlog_text(p.at_start),
            "); latencies count from the intended starts, the waiting included\n"});
  return out;
}

}  // namespace tpcc::report
