// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html.cpp: the HTML report's page, header and table (see html.hpp).
#include "report/html.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <initializer_list>
#include <string_view>

#include "report/html_assets.hpp"
#include "report/html_ch.hpp"
#include "report/html_chart.hpp"
#include "report/html_data.hpp"
#include "report/html_endpoints.hpp"
#include "report/html_facts.hpp"
#include "report/html_sections.hpp"
#include "report/html_server.hpp"
#include "report/html_steps.hpp"
#include "report/json_detail.hpp"
#include "report/rate.hpp"
#include "report/summary.hpp"
#include "report/text.hpp"
#include "report/text_file.hpp"
#include "report/verdict.hpp"

namespace tpcc::report {
namespace {

using html::escape;

std::string clock_time(double seconds) {
  const auto t = static_cast<long long>(std::llround(std::max(seconds, 0.0)));
  if (t >= 3600) return format("%lld:%02lld:%02lld", t / 3600, t / 60 % 60, t % 60);
  return format("%lld:%02lld", t / 60, t % 60);
}

std::string readable_utc(std::chrono::system_clock::time_point t) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm parts{};
  gmtime_r(&seconds, &parts);
  std::array<char, 64> b{};
  std::strftime(b.data(), b.size(), "%Y-%m-%d %H:%M:%S UTC", &parts);
  return b.data();
}

std::string banner(std::string_view kind, const std::string& text) {
  std::string out;
  put(out, {"<div class=\"banner ", kind, "\">", escape(text), "</div>"});
  return out;
}

std::string banners(const run::run_result& r, const std::string& target) {
  std::string out;
  if (r.ch.ran()) {
    out += banner("warn",
                  "CH-benCHmark: analytic streams ran beside the terminals; not a TPC-C "
                  "result (the verdict judges the TPC-C side).");
  }
  if (r.simulated || target.starts_with("sim:")) {
    out += banner("warn",
                  "Simulated database: not a database result. The statements were "
                  "answered after a configured delay; this measures the client only.");
  }
  if (r.paced()) {
    out += banner(r.pacing && r.pacing->grew() ? "bad" : "warn",
                  rate_mode_text(r) + ". " + rate_outcome_text(r) + ".");
  } else if (r.wait_scale == 0.0) {
    out += banner("warn", "NOT TPC-C: --no-wait (no keying or think times), a stress test.");
  } else if (r.wait_scale != 1.0) {
    out += banner("warn", format("NOT TPC-C: keying and think times scaled by %g.", r.wait_scale));
  }
  if (r.interrupted) out += banner("warn", "Interrupted: the measurement interval was cut short.");
  if (!r.drained) {
    out += banner("warn", "Transactions still in flight at the end were abandoned.");
  }
  if (!r.fatal.empty()) out += banner("bad", "Stopped by an error: " + r.fatal);
  if (r.client.client_bound) {
    out += banner("bad", "Client-bound: " + r.client.client_bound_reason +
                             ". The client, not the database, limited this result.");
  }
  return out;
}

std::string fact(std::string_view label, const std::string& value, bool big = false) {
  std::string out;
  put(out, {"<div><dt>", label, "</dt><dd", big ? " class=\"big\"" : "", ">", escape(value),
            "</dd></div>"});
  return out;
}

std::string efficiency_text(const run::run_result& r) {
  if (r.paced()) return "n/a (--rate)";
  if (r.wait_scale == 0.0) return "n/a (no waits)";
  const std::string pct = format("%.1f %%", efficiency(r) * 100.0);
  return r.wait_scale == 1.0 ? pct : pct + " of the scaled maximum";
}

std::string warehouses_text(const run::run_result& r) {
  std::string out = format("%lld", static_cast<long long>(r.warehouses));
  if (r.first_warehouse != 1 || r.last_warehouse != r.warehouses) {
    out += format(" (this client: %lld-%lld)", static_cast<long long>(r.first_warehouse),
                  static_cast<long long>(r.last_warehouse));
  }
  return out + format(", %lld terminals", static_cast<long long>(r.terminals));
}

std::string phases_text(const html::phases& p) {
  std::string out = "warm-up 0:00-";
  put(out, {clock_time(p.warmup_end), ", measurement ", clock_time(p.warmup_end), "-",
            clock_time(p.measure_end), ", drain ", clock_time(p.measure_end), "-",
            clock_time(p.run_end)});
  return out;
}

std::string facts(const run::run_result& r, const std::string& target, const html::phases& p) {
  std::string out = "<dl class=\"facts\">";
  out += fact("tpmC", format("%.2f", tpmc(r)), true);
  out += fact("tpmTotal", format("%.2f", tpm_total(r)), true);
  if (r.ch.ran()) {
    out += fact("CH queries per hour", format("%.1f", r.ch.queries_per_hour(r.measured_seconds)),
                true);
  }
  out += fact("efficiency", efficiency_text(r), true);
  out += fact("database", target);
  out += fact("warehouses", warehouses_text(r));
  out += fact("measured", format("%.1f s", r.measured_seconds));
  out += fact("isolation", isolation_text(r, target));
  out += fact("started", readable_utc(r.started));
  out += fact("phases (m:ss since the terminals started)", phases_text(p));
  out += fact("client", format("%.1f CPU s, peak RSS %.1f MiB", r.client.cpu_seconds,
                               static_cast<double>(r.client.peak_rss_bytes) / 1048576.0));
  return out + "</dl>";
}

// A percentile cell in milliseconds, "-" when the histogram has no sample.
std::string ms_cell(const stats::histogram& h, double fraction) {
  if (h.count() == 0) return "<td>-</td>";
  const std::uint64_t micros = fraction >= 1.0 ? h.max() : h.percentile(fraction);
  return format("<td>%.1f</td>", static_cast<double>(micros) / 1000.0);
}

std::string count_cell(std::uint64_t n, bool failure) {
  return format(failure && n > 0 ? "<td class=\"fail\">%llu</td>" : "<td>%llu</td>",
                static_cast<unsigned long long>(n));
}

std::string table_row(const run::run_result& r, txn::kind k, std::uint64_t all) {
  const stats::kind_totals& t = r.results.kinds[txn::index(k)];
  const std::uint64_t done = t.outcomes.completed();
  const double limit = txn::p90_limit_seconds[txn::index(k)];
  const bool late =
      t.response.count() > 0 && static_cast<double>(t.response.percentile(0.9)) > limit * 1e6;
  std::string out = "<tr><td>" + escape(txn::name(k)) + "</td>";
  for (const stats::outcome_info& i : stats::outcome_table) {
    out += count_cell(t.outcomes[i.outcome], !i.completed);
  }
  put(out, {count_cell(t.retries, false),
            format("<td>%.2f %%</td>",
                   all == 0 ? 0.0 : 100.0 * static_cast<double>(done) / static_cast<double>(all)),
            ms_cell(t.response, 0.5), ms_cell(t.response, 0.9), ms_cell(t.response, 0.99),
            ms_cell(t.response, 1.0),
            format(late ? "<td class=\"fail\">%g s: over</td>" : "<td>%g s</td>", limit), "</tr>"});
  return out;
}

// Every distinct error of the run, when there were any: the database's messages are text from
// outside, escaped like every other string.
std::string error_list(const run::run_result& r) {
  const stats::error_list& list = r.errors;
  if (list.entries.empty() && list.unlisted == 0) return {};
  std::string rows;
  for (const stats::error_entry& e : list.entries) {
    put(rows, {"<tr><td>", escape(txn::name(e.kind)), "</td><td>", escape(e.sqlstate), "</td><td>",
               escape(e.outcome), "</td><td>", escape(e.statement), "</td><td class=\"message\">",
               escape(e.message), "</td>", count_cell(e.count, true), "<td>",
               escape(detail::iso_utc(e.first)), "</td><td>", escape(detail::iso_utc(e.last)),
               "</td></tr>"});
  }
  std::string out =
      "<section><h2 class=\"fail\">Errors (every phase, each distinct one)</h2><table><thead>"
      "<tr><th>type</th><th>SQLSTATE</th><th>outcome</th><th>statement</th><th>first message"
      "</th><th>count</th><th>first</th><th>last</th></tr></thead><tbody>" +
      rows + "</tbody></table>";
  if (list.unlisted > 0) {
    out += format("<p>%llu more errors of kinds past the first %zu, counted only.</p>",
                  static_cast<unsigned long long>(list.unlisted), stats::max_listed_errors);
  }
  return out + "</section>";
}

// The failures of each type by SQLSTATE class, when there were any.
std::string failures(const run::run_result& r) {
  std::string rows;
  for (const txn::kind k : txn::all_kinds) {
    const stats::kind_totals& t = r.results.kinds[txn::index(k)];
    for (const auto& [cls, n] : t.error_classes) {
      rows += "<tr><td>" + escape(txn::name(k)) + "</td><td>" + escape(cls) + "</td>" +
              count_cell(n, true) + ms_cell(t.failed_response, 0.9) + "</tr>";
    }
  }
  if (rows.empty()) return {};
  return "<section><h2 class=\"fail\">Failures (measurement interval)</h2><table><thead><tr>"
         "<th>type</th><th>SQLSTATE class</th><th>failures</th><th>p90 ms until known</th>"
         "</tr></thead><tbody>" +
         rows + "</tbody></table></section>";
}

std::string outcome_table(const run::run_result& r) {
  std::uint64_t all = 0;
  for (const auto& t : r.results.kinds) all += t.outcomes.completed();
  std::string out =
      "<section><h2>Per transaction type (measurement interval)</h2><table><thead><tr>"
      "<th>type</th>";
  for (const stats::outcome_info& i : stats::outcome_table) {
    out += "<th>" + escape(i.key) + "</th>";
  }
  out +=
      "<th>retries</th><th>share of mix</th><th>p50 ms</th><th>p90 ms</th><th>p99 ms</th>"
      "<th>max ms</th><th>p90 limit</th></tr></thead><tbody>";
  for (const txn::kind k : txn::all_kinds) out += table_row(r, k, all);
  return out + "</tbody></table><p>Percentiles cover completed transactions only.</p></section>" +
         failures(r) + error_list(r);
}

std::string head(const std::string& target) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      "<title>shoal-tpcc result: ";
  put(out, {escape(target), "</title><style>", html::style, "</style></head>\n"});
  return out;
}

}  // namespace

std::string format_html(const run::run_result& r, const std::string& target) {
  const html::phases p = html::phases_of(r);
  const html::timeline t = html::timeline_of(r.series);
  std::string out = head(target);
  put(out, {"<body><main><header class=\"card\"><h1>shoal-tpcc result</h1>", banners(r, target),
            facts(r, target, p), "</header>\n"});
  put(out, {html::verdict_section(evaluate(r, target)), "\n", html::throughput_section(t, p), "\n",
            html::latency_section(t, p), "\n", html::distribution_section(r), "\n",
            html::server_section(r, p), "\n", outcome_table(r), "\n", html::endpoints_section(r, p),
            "\n", html::steps_section(r), "\n", html::ch_section(r), "\n",
            html::configuration_section(r)});
  put(out, {"<footer>Generated by shoal-tpcc. Definitions: docs/tpcc/results.md; this page: "
            "docs/tpcc/design/tpcc-html-report.md.</footer></main><script>",
            html::script, "</script></body></html>\n"});
  return out;
}

std::optional<std::string> write_html(const run::run_result& r, const std::string& target,
                                      const std::string& path) {
  return write_text_file(path, format_html(r, target), "the HTML report");
}

}  // namespace tpcc::report
