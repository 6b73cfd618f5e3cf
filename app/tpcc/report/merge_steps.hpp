// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/merge_steps.hpp: the --schedule steps of several shards' results as one
// (see merge.hpp).
//
// What: shards of one schedule (same steps: rates, durations and --knee-p90; anything else is
// refused by different_schedule) offered each step's rate each, so the merged step offers their
// sum. A step's window moves onto the merged time axis (the earliest shard's start, as the
// interval series: merge_series.hpp) and becomes the span every shard was in it: the latest
// shift of its start and of its settled start, the earliest of its end; partial when any
// shard's was; its --rate figures (backlog) add as the run's do (stats::pace_totals::add),
// none when a shard has none. The step figures then come from the merged series (report/steps.hpp):
// the shards' counts and buckets added. A step not every shard began is left out, with a note.
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "run_result/result.hpp"

namespace tpcc::report {

struct shard_steps {
  const run::run_result* result;
  double offset_seconds;  // this shard's start after the earliest one's
};

/// How `b`'s schedule differs from `a`'s (a few words: "a --schedule of a different length"),
/// or nullopt when they are the same.
[[nodiscard]] std::optional<std::string> different_schedule(const run::run_config& a,
                                                            const run::run_config& b);

/// The merged steps of `shards` (at least one; of one schedule); `notes` gets a line when
/// steps are left out.
[[nodiscard]] std::vector<run::step_window> merge_steps(const std::vector<shard_steps>& shards,
                                                        std::vector<std::string>& notes);

}  // namespace tpcc::report
