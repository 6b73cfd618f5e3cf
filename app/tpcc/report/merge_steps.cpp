// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/merge_steps.cpp: shards' schedule steps as one (see merge_steps.hpp).
#include "report/merge_steps.hpp"

#include <algorithm>
#include <cstddef>

namespace tpcc::report {
namespace {

// Step `w` of a shard `offset` seconds after the earliest start, narrowed into `into`.
void narrow_step(run::step_window& into, const run::step_window& w, double offset, bool first) {
  const double start = w.start_seconds + offset;
  const double settled = w.window_start + offset;
  const double end = w.end_seconds + offset;
  if (first) {
    into = w;
    into.rate_tpm = 0;
    into.start_seconds = start;
    into.window_start = settled;
    into.end_seconds = end;
  }
  into.rate_tpm += w.rate_tpm;
  into.start_seconds = std::max(into.start_seconds, start);
  into.window_start = std::max(into.window_start, settled);
  into.end_seconds = std::min(into.end_seconds, end);
  into.window_start = std::min(into.window_start, into.end_seconds);  // empty, never reversed
  into.start_seconds = std::min(into.start_seconds, into.window_start);
  into.partial = into.partial || w.partial;
  if (first) return;
  if (into.pacing && w.pacing) {
    into.pacing->add(*w.pacing);
  } else {
    into.pacing.reset();  // a shard's figures are missing: none rather than a part
  }
}

}  // namespace

std::optional<std::string> different_schedule(const run::run_config& a, const run::run_config& b) {
  bool same = a.schedule.size() == b.schedule.size() && a.knee_p90 == b.knee_p90;
  for (std::size_t i = 0; same && i < a.schedule.size(); ++i) {
    same = a.schedule[i].rate_tpm == b.schedule[i].rate_tpm &&
           a.schedule[i].duration == b.schedule[i].duration;
  }
  if (same) return std::nullopt;
  return std::string(a.schedule.size() == b.schedule.size()
                         ? "different --schedule rates, durations or --knee-p90"
                         : "a --schedule of a different length");
}

std::vector<run::step_window> merge_steps(const std::vector<shard_steps>& shards,
                                          std::vector<std::string>& notes) {
  std::size_t common = shards.front().result->steps.size();
  std::size_t most = common;
  for (const shard_steps& s : shards) {
    common = std::min(common, s.result->steps.size());
    most = std::max(most, s.result->steps.size());
  }
  std::vector<run::step_window> out(common);
  for (std::size_t i = 0; i < common; ++i) {
    for (std::size_t k = 0; k < shards.size(); ++k) {
      narrow_step(out[i], shards[k].result->steps[i], shards[k].offset_seconds, k == 0);
    }
  }
  if (most > common) {
    notes.push_back("steps " + std::to_string(common + 1) + " to " + std::to_string(most) +
                    " left out: not every shard began them (interrupted)");
  }
  return out;
}

}  // namespace tpcc::report
