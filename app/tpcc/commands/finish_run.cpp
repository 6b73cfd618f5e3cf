// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/finish_run.cpp: a run's summary, report files and judgement (see
// steps.hpp: finish_run).
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "commands/reports.hpp"
#include "commands/steps.hpp"
#include "report/endpoint_outage.hpp"
#include "report/hard_failures.hpp"
#include "report/summary.hpp"
#include "report/verdict.hpp"
#include "stats/process.hpp"

namespace tpcc::commands {
namespace {

// The analytic side alone: exit_judged when queries failed (each first error printed above).
int ch_failures_status(const cli::config& cfg, const run::run_result& r) {
  if (r.ch.failed() == 0) return exit_ok;
  std::fprintf(stderr, "shoal-tpcc: run: %llu CH-benCHmark queries failed%s\n",
               static_cast<unsigned long long>(r.ch.failed()),
               cfg.tolerate_errors ? "; exit status 0 (--tolerate-errors)"
                                   : "; exit status 3 (--tolerate-errors to exit 0)");
  return cfg.tolerate_errors ? exit_ok : exit_judged;
}

// exit_judged, saying why, when the verdict failed, transactions or CH-benCHmark queries failed
// for good or an endpoint of several was lost for part of the run (report/endpoint_outage.hpp);
// exit_ok otherwise or with --tolerate-errors (which the message names).
int judged_status(const cli::config& cfg, const run::run_result& r, const std::string& target) {
  // --terminals 0: the analytic side alone; there is no TPC-C side to judge.
  if (r.terminals == 0 && r.ch.ran()) return ch_failures_status(cfg, r);
  const report::verdict v = report::evaluate(r, target);
  const std::uint64_t failed = report::hard_failures(r) + r.ch.failed();  // CH queries count too
  const std::vector<std::string> outages = report::endpoint_outages(r);   // several --db only
  if (v.failing().empty() && failed == 0 && outages.empty()) return exit_ok;
  std::string why = v.failing().empty() ? std::string() : "the verdict FAILED";
  if (failed > 0) {
    why += (why.empty() ? "" : " and ") + std::to_string(failed) +
           " transaction(s) or CH-benCHmark queries failed with non-retryable errors (each "
           "distinct error printed "
           "above)";
  }
  for (const std::string& down : outages) why += (why.empty() ? "" : " and ") + down;
  std::fprintf(stderr, "shoal-tpcc: run: %s%s\n", why.c_str(),
               cfg.tolerate_errors ? "; exit status 0 (--tolerate-errors)"
                                   : "; exit status 3 (--tolerate-errors to exit 0)");
  return cfg.tolerate_errors ? exit_ok : exit_judged;
}

// The summary's peak RSS is the run's, before any report was built; this one, printed last,
// includes the memory of writing them (the JSON document above all).
void print_final_rss() {
  const stats::process_usage usage = stats::read_process_usage();
  std::printf("  client      peak RSS with every report written %.1f MiB\n",
              static_cast<double>(usage.peak_rss_bytes) / 1048576.0);
  std::fflush(stdout);
}

}  // namespace

int finish_run(const app& a, const run::run_result& result, const std::string& target,
               int run_status) {
  std::printf("%s", report::format_summary(result, target).c_str());
  std::fflush(stdout);
  if (!write_report_files(a.cfg, result, target)) return exit_failed;
  if (!write_result_json(a.cfg, result, target)) return exit_failed;
  print_final_rss();
  if (run_status != exit_ok) return run_status;
  return judged_status(a.cfg, result, target);
}

}  // namespace tpcc::commands
