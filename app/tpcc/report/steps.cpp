// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/steps.cpp: a schedule's per-step figures and its knee (see steps.hpp).
#include "report/steps.hpp"

#include <array>
#include <cmath>
#include <limits>

#include "report/text.hpp"
#include "stats/histogram.hpp"

namespace tpcc::report {
namespace {

// One step's sums while its intervals are added up.
struct step_sums {
  std::array<stats::histogram, txn::kind_count> response;
  std::vector<double> rates;  // each interval's tpmTotal
};

// Inside to a quarter of the interval's length: cuts come a little late (the monitor's timer),
// and a settle time that ends inside an interval leaves that interval out.
bool inside_step(const stats::interval_sample& i, const run::step_window& w) {
  const double slack = (i.end_seconds - i.start_seconds) / 4.0;
  return i.start_seconds >= w.window_start - slack && i.end_seconds <= w.end_seconds + slack;
}

void add_interval(const stats::interval_sample& i, step_figures& f, step_sums& sums) {
  std::uint64_t ended = 0;
  for (std::size_t k = 0; k < txn::kind_count; ++k) {
    const stats::interval_kind& in = i.kinds[k];
    step_kind& out = f.kinds[k];
    out.ended += in.outcomes.total();
    out.completed += in.outcomes.completed();
    out.failed += in.outcomes.failures();
    ended += in.outcomes.total();
    sums.response[k].merge(in.response.expand());
  }
  const double seconds = i.end_seconds - i.start_seconds;
  f.window_seconds += seconds;
  ++f.intervals;
  if (seconds > 0) sums.rates.push_back(static_cast<double>(ended) * 60.0 / seconds);
}

double half_width(const std::vector<double>& rates) {
  if (rates.size() < 2) return std::numeric_limits<double>::infinity();
  double mean = 0;
  for (const double x : rates) mean += x;
  mean /= static_cast<double>(rates.size());
  double squares = 0;
  for (const double x : rates) squares += (x - mean) * (x - mean);
  const double n = static_cast<double>(rates.size());
  const double sd = std::sqrt(squares / (n - 1));
  return t95(rates.size() - 1) * sd / std::sqrt(n);
}

// The totals, percentiles and the verdict's subset, once every interval is in.
void finish_step(step_figures& f, const step_sums& sums) {
  std::uint64_t ended = 0;
  for (std::size_t k = 0; k < txn::kind_count; ++k) {
    step_kind& out = f.kinds[k];
    const stats::histogram& h = sums.response[k];
    out.p90_seconds = static_cast<double>(h.percentile(0.90)) / 1e6;
    out.p99_seconds = static_cast<double>(h.percentile(0.99)) / 1e6;
    ended += out.ended;
    f.failed += out.failed;
    f.worst_p90_seconds = std::max(f.worst_p90_seconds, out.p90_seconds);
    if (out.p90_seconds > txn::p90_limit_seconds[k]) f.p90_within_limits = false;
  }
  if (f.window_seconds <= 0) return;
  const auto& no = f.kinds[txn::index(txn::kind::new_order)];
  f.tpmc = static_cast<double>(no.completed) * 60.0 / f.window_seconds;
  f.tpm_total = static_cast<double>(ended) * 60.0 / f.window_seconds;
  f.tpm_total_half_width = half_width(sums.rates);
}

std::string step_name(std::size_t i, const step_figures& f) {
  return format("step %zu (%.0f tpm offered)", i + 1, f.window.rate_tpm);
}

}  // namespace

double t95(std::size_t df) noexcept {
  static constexpr std::array<double, 30> table{
      12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
      2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
      2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (df == 0) return std::numeric_limits<double>::infinity();
  return df <= table.size() ? table[df - 1] : 1.96;
}

std::string step_backlog_text(const step_figures& f) {
  if (!f.window.pacing) return {};
  const stats::pace_totals& p = *f.window.pacing;
  const auto behind = static_cast<unsigned long long>(p.at_end.behind);
  if (!p.grew()) return format("kept up (%llu behind at the end)", behind);
  return format("BACKLOG grew to %llu behind, the oldest %.1f s late (%.1f s at the start)", behind,
                p.at_end.oldest_seconds, p.at_start.oldest_seconds);
}

std::vector<step_figures> step_figures_of(const run::run_result& r) {
  std::vector<step_figures> out;
  for (const run::step_window& w : r.steps) {
    step_figures f;
    f.window = w;
    step_sums sums;
    for (const stats::interval_sample& i : r.series) {
      if (inside_step(i, w)) add_interval(i, f, sums);
    }
    finish_step(f, sums);
    out.push_back(f);
  }
  return out;
}

knee_finding find_knee(const std::vector<step_figures>& steps, double p90_limit_seconds) {
  for (std::size_t k = 0; k < steps.size() && !steps[k].window.partial; ++k) {
    const step_figures& now = steps[k];
    if (k > 0) {  // the step before stopped the growth: it is earlier than this one's p90
      const step_figures& before = steps[k - 1];
      const double noise = before.tpm_total_half_width + now.tpm_total_half_width;
      if (now.tpm_total - before.tpm_total <= noise) {
        return {k - 1, format("%s: throughput stops growing past it (%s: %.0f tpm against "
                              "%.0f, within the intervals' +-%.0f)",
                              step_name(k - 1, before).c_str(), step_name(k, now).c_str(),
                              now.tpm_total, before.tpm_total, noise)};
      }
    }
    if (now.window.pacing && now.window.pacing->grew()) {
      const stats::pace_totals& p = *now.window.pacing;
      return {
          k, format("%s: the database did not keep up, its backlog grew over the step (the "
                    "oldest intended start %.1f s late at its window's end, %.1f s at its "
                    "start)",
                    step_name(k, now).c_str(), p.at_end.oldest_seconds, p.at_start.oldest_seconds)};
    }
    if (p90_limit_seconds > 0 && now.worst_p90_seconds > p90_limit_seconds) {
      return {k, format("%s: its worst p90 %.3f s is over --knee-p90 %.3f s",
                        step_name(k, now).c_str(), now.worst_p90_seconds, p90_limit_seconds)};
    }
  }
  return {std::nullopt, "none within the schedule: throughput grew at every step"};
}

knee_finding knee_of(const run::run_result& r, const std::vector<step_figures>& steps) {
  return find_knee(steps, std::chrono::duration<double>(r.config.knee_p90).count());
}

}  // namespace tpcc::report
