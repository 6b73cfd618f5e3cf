// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/verdict.cpp: the run-level items of the verdict and its rendering (see
// verdict.hpp); the input audit and the mix are in verdict_audit.cpp.
#include "report/verdict.hpp"

#include "driver/target.hpp"
#include "report/summary.hpp"
#include "report/text.hpp"
#include "report/verdict_audit.hpp"

namespace tpcc::report {
namespace {

// The run was deliberately not a TPC-C run (scaled waits, a simulated database, a short
// interval, an interrupt): the item cannot pass, and the run says nothing against the system.
void not_reportable(verdict_item& i, bool reportable) {
  i.pass = reportable;
  i.inconclusive = !reportable;
}

verdict_item mode_item(const run::run_result& r) {
  verdict_item i = named("keying and think times", "5.2.5.4, 5.2.5.7");
  i.required = "as the spec (no --no-wait, --rate, --wait-scale 1)";
  if (r.paced()) {
    i.measured = format(r.config.schedule.empty() ? "--rate %.0f tpm: none (Poisson arrivals)"
                                                  : "--schedule, mean %.0f tpm: none (Poisson)",
                        r.config.rate_tpm);
  } else if (r.wait_scale == 0.0) {
    i.measured = "--no-wait: none";
  } else {
    i.measured = r.wait_scale == 1.0 ? "as the spec" : format("scaled by %g", r.wait_scale);
  }
  not_reportable(i, r.tpc_c_waits());
  return i;
}

verdict_item terminals_item(const run::run_result& r) {
  verdict_item i = named("terminals per warehouse", "4.2.2");
  i.required = "10";
  i.measured = format("%lld", static_cast<long long>(r.config.terminals_per_warehouse));
  not_reportable(i, r.config.terminals_per_warehouse == 10);
  if (!i.pass) i.note = "--terminals: not a TPC-C result, whatever the other figures";
  return i;
}

verdict_item database_item(std::string_view target) {
  verdict_item i = named("database", "1.1");
  i.required = "a real database";
  not_reportable(i, !is_simulated(target));
  i.measured = i.pass ? "a real database" : "simulated (client capacity mode)";
  return i;
}

verdict_item interval_item(const run::run_result& r) {
  verdict_item i = named("measurement interval", "5.5");
  i.measured = format("%.1f min", r.measured_seconds / 60.0);
  i.required = format(">= %.0f min", reportable_interval_seconds / 60.0);
  not_reportable(i, r.measured_seconds >= reportable_interval_seconds);
  if (!i.pass) i.measured += ": too short for a reportable result";
  return i;
}

verdict_item completed_item(const run::run_result& r) {
  verdict_item i = named("run completed", "5.5");
  i.required = "not interrupted, no fatal error";
  if (!r.fatal.empty()) {
    i.measured = "stopped by an error: " + r.fatal;
  } else {
    i.measured = r.interrupted ? "interrupted" : "completed";
  }
  i.pass = r.fatal.empty() && !r.interrupted;
  i.inconclusive = r.fatal.empty() && r.interrupted;
  return i;
}

verdict_item client_item(const run::run_result& r) {
  verdict_item i = named("client not the bottleneck", "-");
  i.required = "not client-bound";
  // A client-bound run measured the client, not the database: no evidence against the system
  // under test, so inconclusive (the summary's CLIENT-BOUND line says why), never a FAIL.
  not_reportable(i, !r.client.client_bound);
  i.measured = i.pass ? "not client-bound" : "client-bound: " + r.client.client_bound_reason;
  return i;
}

verdict_item efficiency_item(const run::run_result& r) {
  verdict_item i = named("efficiency", "-");
  i.informational = true;
  i.pass = true;
  i.required = "informational (the spec sets no minimum)";
  i.measured = r.wait_scale > 0 && !r.paced() && r.measured_seconds > 0
                   ? format("%.1f %%", efficiency(r) * 100.0)
                   : std::string("n/a");
  return i;
}

std::string names(const std::vector<std::string>& list) {
  std::string out;
  for (std::size_t k = 0; k < list.size(); ++k) out.append(k == 0 ? "" : ", ").append(list[k]);
  return out;
}

// The check of clause 3.3.2 run right after this run (the default job) decides; after a bare
// `run` it is unknown, and shown as such without judging.
verdict_item consistency_item(const run::run_result& r) {
  verdict_item i = named("consistency conditions", "3.3.2");
  const run::consistency_status& c = r.consistency;
  if (!c.checked) {
    i.informational = true;
    i.pass = true;
    i.measured = "not checked with this run";
    i.required = "shoal-tpcc check, on the database as the run left it";
    return i;
  }
  i.required = "every condition holds";
  i.pass = c.passed();
  i.measured = i.pass ? format("%zu of %zu hold", c.conditions, c.conditions)
                      : "broken: " + names(c.failing);
  return i;
}

const char* mark(const verdict_item& i) {
  if (i.informational) return "info";
  if (i.pass) return "pass";
  return i.inconclusive ? "INCONCLUSIVE" : "FAIL";
}

std::string item_line(const verdict_item& i) {
  std::string line = format("    %-12s  %-32s ", mark(i), i.name.c_str());
  std::string measured = i.measured;
  if (measured.size() < 24) measured.resize(24, ' ');
  line.append(measured).append(" required ").append(i.required);
  if (i.clause != "-") line.append(" (clause ").append(i.clause).append(")");
  line += "\n";
  if (!i.note.empty()) line.append("                  note: ").append(i.note).append("\n");
  return line;
}

}  // namespace

bool is_simulated(std::string_view target) noexcept {
  return driver::engine_of(target) == driver::engine::sim;
}

std::vector<std::string> verdict::failing() const {
  std::vector<std::string> out;
  for (const verdict_item& i : items) {
    if (!i.pass && !i.informational && !i.inconclusive) out.push_back(i.name);
  }
  return out;
}

std::vector<std::string> verdict::undecided() const {
  std::vector<std::string> out;
  for (const verdict_item& i : items) {
    if (!i.pass && !i.informational && i.inconclusive) out.push_back(i.name);
  }
  return out;
}

const char* verdict::word() const noexcept {
  if (pass) return "PASS";
  return inconclusive ? "INCONCLUSIVE" : "FAIL";
}

verdict evaluate(const run::run_result& r, std::string_view target) {
  verdict v;
  v.items.push_back(database_item(target));
  v.items.push_back(mode_item(r));
  v.items.push_back(terminals_item(r));
  v.items.push_back(interval_item(r));
  v.items.push_back(completed_item(r));
  v.items.push_back(client_item(r));
  append_input_audit(r, v.items);
  append_mix(r, v.items);
  append_response_times(r, v.items);
  append_failures(r, v.items);
  v.items.push_back(consistency_item(r));
  v.items.push_back(efficiency_item(r));
  const bool failed = !v.failing().empty();
  v.inconclusive = !failed && !v.undecided().empty();
  v.pass = !failed && !v.inconclusive;
  return v;
}

std::string format_verdict(const verdict& v) {
  const std::vector<std::string> failed = v.failing();
  const std::vector<std::string> undecided = v.undecided();
  std::string out = "\n  verdict     ";
  if (v.pass) {
    out += "PASS: every item of the audit is met\n";
  } else if (v.inconclusive) {
    out += format("INCONCLUSIVE: nothing failed, %zu item(s) not decided: ", undecided.size()) +
           names(undecided) + "\n";
  } else {
    out += format("FAIL: %zu item(s) not met: ", failed.size()) + names(failed) + "\n";
  }
  for (const verdict_item& i : v.items) out += item_line(i);
  return out;
}

}  // namespace tpcc::report
