// app/tpcc/report/verdict.cpp: the run-level items of the verdict and its rendering (see
// verdict.hpp); the input audit and the mix are in verdict_audit.cpp.
#include "report/verdict.hpp"

#include "report/summary.hpp"
#include "report/text.hpp"
#include "report/verdict_audit.hpp"

namespace tpcc::report {
namespace {

verdict_item mode_item(const run::run_result& r) {
  verdict_item i = named("keying and think times", "5.2.5.4, 5.2.5.7");
  i.required = "as the spec (no --no-wait, --wait-scale 1)";
  if (r.wait_scale == 0.0) {
    i.measured = "--no-wait: none";
  } else {
    i.measured = r.wait_scale == 1.0 ? "as the spec" : format("scaled by %g", r.wait_scale);
  }
  i.pass = r.wait_scale == 1.0;
  return i;
}

verdict_item database_item(std::string_view target) {
  verdict_item i = named("database", "1.1");
  i.required = "a real database";
  i.pass = !is_simulated(target);
  i.measured = i.pass ? "a real database" : "simulated (client capacity mode)";
  return i;
}

verdict_item interval_item(const run::run_result& r) {
  verdict_item i = named("measurement interval", "5.5");
  i.measured = format("%.1f min", r.measured_seconds / 60.0);
  i.required = format(">= %.0f min", reportable_interval_seconds / 60.0);
  i.pass = r.measured_seconds >= reportable_interval_seconds;
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
  return i;
}

verdict_item client_item(const run::run_result& r) {
  verdict_item i = named("client not the bottleneck", "-");
  i.required = "not client-bound";
  i.pass = !r.client.client_bound;
  i.measured = i.pass ? "not client-bound" : "client-bound: " + r.client.client_bound_reason;
  return i;
}

verdict_item efficiency_item(const run::run_result& r) {
  verdict_item i = named("efficiency", "-");
  i.informational = true;
  i.pass = true;
  i.required = "informational (the spec sets no minimum)";
  i.measured = r.wait_scale > 0 && r.measured_seconds > 0 ? format("%.1f %%", efficiency(r) * 100.0)
                                                          : std::string("n/a");
  return i;
}

std::string item_line(const verdict_item& i) {
  const char* mark = i.informational ? "info" : (i.pass ? "pass" : "FAIL");
  std::string line = format("    %-4s  %-30s ", mark, i.name.c_str());
  std::string measured = i.measured;
  if (measured.size() < 24) measured.resize(24, ' ');
  line.append(measured).append(" required ").append(i.required);
  if (i.clause != "-") line.append(" (clause ").append(i.clause).append(")");
  return line + "\n";
}

}  // namespace

bool is_simulated(std::string_view target) noexcept { return target.starts_with("sim:"); }

std::vector<std::string> verdict::failing() const {
  std::vector<std::string> names;
  for (const verdict_item& i : items) {
    if (!i.pass && !i.informational) names.push_back(i.name);
  }
  return names;
}

verdict evaluate(const run::run_result& r, std::string_view target) {
  verdict v;
  v.items.push_back(database_item(target));
  v.items.push_back(mode_item(r));
  v.items.push_back(interval_item(r));
  v.items.push_back(completed_item(r));
  v.items.push_back(client_item(r));
  append_input_audit(r, v.items);
  append_mix(r, v.items);
  append_response_times(r, v.items);
  v.items.push_back(efficiency_item(r));
  v.pass = v.failing().empty();
  return v;
}

std::string format_verdict(const verdict& v) {
  const std::vector<std::string> failed = v.failing();
  std::string out = "\n  verdict     ";
  if (v.pass) {
    out += "PASS: every item of the audit is met\n";
  } else {
    out += format("FAIL: %zu item(s) not met: ", failed.size());
    for (std::size_t k = 0; k < failed.size(); ++k)
      out.append(k == 0 ? "" : ", ").append(failed[k]);
    out += "\n";
  }
  for (const verdict_item& i : v.items) out += item_line(i);
  return out;
}

}  // namespace tpcc::report
