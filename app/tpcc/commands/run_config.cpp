// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/run_config.cpp: a run's settings from the command line (see run_config.hpp).
#include "commands/run_config.hpp"

#include <chrono>
#include <cstdio>

#include "random/rng.hpp"
#include "terminal/pace.hpp"

namespace tpcc::commands {

static_assert(cli::max_rate_per_terminal == terminal::max_tpm_per_terminal,
              "--rate's per-terminal limit is checked by the command line and by the run");

run::run_config run_config_of(const cli::config& cfg) {
  run::run_config rc;
  rc.warehouses = cfg.warehouses;
  rc.terminals_per_warehouse = cfg.terminals;
  rc.warmup = cfg.warmup;
  rc.measure = cfg.duration;
  rc.drain = cfg.drain;
  rc.wait_scale = cfg.wait_scale;
  rc.rate_tpm = cfg.rate_tpm;
  for (const cli::schedule_step& s : cfg.schedule) {
    // A step without streams=N runs every stream --analytic-streams opens.
    rc.schedule.push_back({s.rate_tpm, s.duration,
                           s.analytic_streams < 0 ? cfg.analytic_streams : s.analytic_streams});
  }
  if (!rc.schedule.empty()) {  // the steps are the measurement interval, at their mean rate
    rc.measure = run::schedule_length(rc.schedule);
    rc.rate_tpm = run::mean_rate(rc.schedule);
  }
  rc.knee_p90 = cfg.knee_p90;
  rc.procedures = cfg.procedures;
  rc.isolation = cfg.isolation;
  rc.delivery_log = cfg.delivery_log_path;
  rc.deliverers = cfg.deliverers;
  rc.analytic_streams = cfg.analytic_streams;
  rc.seed = cfg.seed != 0 ? cfg.seed : random::seed_from_time();
  rc.shard.index = cfg.shard_index;
  rc.shard.count = cfg.shard_count;
  rc.start_at = cfg.start_at;
  rc.interval = cfg.interval;
  rc.client_lag_limit = cfg.client_lag_limit;
  return rc;
}

void warn_if_start_passed(const cli::config& cfg) {
  if (!cfg.start_at) return;
  const std::chrono::duration<double> late = std::chrono::system_clock::now() - *cfg.start_at;
  if (late.count() > 0) {
    std::fprintf(stderr,
                 "shoal-tpcc: warning: --start-at is %.0f s in the past; starting at once\n",
                 late.count());
  }
}

}  // namespace tpcc::commands
