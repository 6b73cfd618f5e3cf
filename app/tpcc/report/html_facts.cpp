// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_facts.cpp: the verdict and configuration sections (see html_facts.hpp).
#include "report/html_facts.hpp"

#include <chrono>
#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

#include "report/html_chart.hpp"
#include "report/json_detail.hpp"
#include "report/summary.hpp"
#include "report/text.hpp"

namespace tpcc::report::html {
namespace {

// The run's waits: the spec's, scaled, or replaced by --rate's pacing.
std::string waits_text(const run::run_config& c) {
  if (!c.schedule.empty()) {
    return format("none: --schedule of %zu rate steps, mean %.0f tpm", c.schedule.size(),
                  c.rate_tpm);
  }
  if (c.rate_tpm > 0) return format("none: --rate %.0f tpm, Poisson arrivals", c.rate_tpm);
  return c.wait_scale == 1.0 ? std::string("the spec's") : format("scaled by %g", c.wait_scale);
}

std::string cat(std::initializer_list<std::string_view> pieces) {
  std::string out;
  for (const std::string_view p : pieces) out += p;
  return out;
}

const char* judgement(const verdict_item& i) {
  if (i.informational) return "info";
  if (i.pass) return "PASS";
  return i.inconclusive ? "INCONCLUSIVE" : "FAIL";
}

std::string item_row(const verdict_item& i) {
  const bool failed = !i.pass && !i.inconclusive && !i.informational;
  return cat({"<tr><td>", escape(i.name), "</td><td>", escape(i.clause), "</td><td>",
              escape(i.measured), "</td><td>", escape(i.required), "</td><td",
              failed ? " class=\"fail\"" : "", ">", judgement(i), "</td><td class=\"note\">",
              escape(i.note), "</td></tr>"});
}

std::string seconds_text(std::chrono::nanoseconds d) {
  return format("%g s", std::chrono::duration<double>(d).count());
}

// The effective settings and the provenance, as label/value pairs.
std::vector<std::pair<std::string, std::string>> settings(const run::run_result& r) {
  const run::run_config& c = r.config;
  const run::provenance& p = r.origin;
  return {
      {"command line", p.command_line},
      {"shoal-tpcc", p.version.empty() ? "" : p.version + " (commit " + p.commit + ")"},
      {"database server", p.server_version},
      {"client host", p.host.empty() ? "" : format("%s, %u cores", p.host.c_str(), p.cores)},
      {"workers, connections", format("%zu, %zu", p.workers, p.connections)},
      {"warehouses", format("%lld", static_cast<long long>(c.warehouses))},
      {"terminals", format("%lld", static_cast<long long>(r.terminals))},
      {"shard", format("%lld/%lld", static_cast<long long>(c.shard.index),
                       static_cast<long long>(c.shard.count))},
      {"isolation", isolation_name(c.isolation)},
      {"transactions",
       c.procedures ? "one stored-procedure call each (--procedures)" : "client-side statements"},
      {"warm-up, measurement, drain",
       seconds_text(c.warmup) + ", " + seconds_text(c.measure) + ", " + seconds_text(c.drain)},
      {"keying and think times", waits_text(c)},
      {"deliverers", format("%zu", c.deliverers)},
      {"seed", format("%llu", static_cast<unsigned long long>(c.seed))},
      {"interval", seconds_text(c.interval)},
      {"start", c.start_at ? detail::iso_utc(*c.start_at) : std::string("at once")},
      {"run", detail::iso_utc(r.started) + " to " + detail::iso_utc(r.ended)},
  };
}

constexpr std::string_view verdict_head =
    "</h2><table "
    "class=\"verdict\"><thead><tr><th>item</th><th>clause</th><th>measured</th><th>required</th>"
    "<th>judged</th><th>why</th></tr></thead><tbody>";

}  // namespace

std::string verdict_section(const verdict& v) {
  const std::string_view css = v.pass || v.inconclusive ? "" : " class=\"fail\"";
  std::string out = cat({"<section><h2", css, ">Verdict: ", v.word(), verdict_head});
  for (const verdict_item& i : v.items) out += item_row(i);
  return out + "</tbody></table></section>";
}

std::string configuration_section(const run::run_result& r) {
  std::string out =
      "<section><h2>Configuration and provenance</h2><table class=\"settings\"><tbody>";
  for (const auto& [label, value] : settings(r)) {
    if (value.empty()) continue;  // an older or merged file without it
    out += cat({"<tr><th>", escape(label), "</th><td>", escape(value), "</td></tr>"});
  }
  return out + "</tbody></table></section>";
}

}  // namespace tpcc::report::html
