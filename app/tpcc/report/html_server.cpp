// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_server.cpp: the database's own figures in the HTML report (see
// html_server.hpp).
#include "report/html_server.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "report/html_chart.hpp"
#include "report/html_sections.hpp"
#include "report/servers.hpp"
#include "report/text.hpp"

namespace tpcc::report::html {
namespace {

using server_stats::server_figures;

// The plotted counters' growth per second of each interval.
chart server_rates_chart(const server_figures& f, const phases& p) {
  chart c;
  c.label = "the database's own figures per second over time";
  c.x = time_axis(p);
  c.bands = phase_bands(p);
  double top = 0;
  for (std::size_t i = 0; i < f.figures.size(); ++i) {
    if (!f.figures[i].plotted) continue;
    line l{f.figures[i].key,
           std::string("c-").append(std::to_string(c.lines.size() % 5)),
           f.figures[i].key,
           {}};
    for (const server_stats::server_interval& s : f.series) {
      const double length = s.end_seconds - s.start_seconds;
      const double rate = length > 0 ? s.values[i] / length : std::nan("");
      if (std::isfinite(rate)) top = std::max(top, rate);
      l.points.push_back({(s.start_seconds + s.end_seconds) / 2, rate});
    }
    c.lines.push_back(std::move(l));
  }
  top = nice_ceiling(std::max(top * 1.05, 1.0));
  c.y = {0, top, false, "per second", linear_ticks(0, top, 5)};
  return c;
}

std::string server_legend(const chart& c) {
  std::string out = "<div class=\"legend\">";
  for (const line& l : c.lines) {
    put(out, {"<button type=\"button\" class=\"", l.css_class, "\" data-series=\"", escape(l.key),
              "\">", escape(l.label), "</button>"});
  }
  return out + "</div>";
}

std::string number_cell(double v, const char* fmt = "%.0f") {
  return std::isfinite(v) ? format("<td>%s</td>", format(fmt, v).c_str()) : "<td>-</td>";
}

std::string window_table(const server_figures& f) {
  if (f.window.empty()) return "<p class=\"empty\">No reading fell in the measurement window.</p>";
  std::string rows;
  for (std::size_t i = 0; i < f.figures.size(); ++i) {
    const bool counter = f.figures[i].kind == server_stats::measure::counter;
    const double v = f.window[i];
    put(rows, {"<tr><td>", escape(f.figures[i].key), "</td><td>", counter ? "counter" : "gauge",
               "</td>", number_cell(v, counter ? "%.0f" : "%.2f"),
               counter && f.window_seconds > 0 ? number_cell(v / f.window_seconds, "%.1f")
                                               : std::string("<td></td>"),
               "</tr>"});
  }
  return format("<h3>Over the measurement window (%.1f s)</h3>", f.window_seconds) +
         "<table><thead><tr><th>figure</th><th>kind</th><th>total (gauges: mean)</th>"
         "<th>per second</th></tr></thead><tbody>" +
         rows + "</tbody></table>";
}

std::string statements_table(const server_figures& f) {
  if (f.top_statements.empty()) return {};
  std::string rows;
  for (const server_stats::top_statement& t : f.top_statements) {
    put(rows, {"<tr><td class=\"message\">", escape(t.query), "</td>", number_cell(t.calls),
               number_cell(t.total_ms, "%.1f"),
               number_cell(t.calls > 0 ? t.total_ms / t.calls : std::nan(""), "%.3f"),
               number_cell(t.rows), "</tr>"});
  }
  return "<h3>Top statements of the window (pg_stat_statements, by total time)</h3><table><thead>"
         "<tr><th>statement</th><th>calls</th><th>total ms</th><th>mean ms</th><th>rows</th>"
         "</tr></thead><tbody>" +
         rows + "</tbody></table>";
}

std::string notes_list(const server_figures& f) {
  if (f.notes.empty()) return {};
  std::string out = "<h3>Notes</h3><ul>";
  for (const std::string& n : f.notes) put(out, {"<li>", escape(n), "</li>"});
  return out + "</ul>";
}

// One server's section: `id` its anchor, `heading` its title (HTML, escaped by the caller).
std::string one_server_section(const server_figures& f, const std::string& id,
                               const std::string& heading, const phases& p) {
  std::string out;
  put(out, {"<section id=\"", id, "\"><h2>", heading, "</h2>"});
  if (!f.collected()) {
    const std::string why =
        f.not_collected.empty() ? server_stats::not_collected_here : f.not_collected;
    return out + "<p class=\"empty\">" + escape(why) + ".</p></section>";
  }
  const chart c = server_rates_chart(f, p);
  put(out, {"<figure><figcaption>", escape(f.source),
            format(": read at every interval on a connection of their own; %llu readings, "
                   "%.2f ms each on average, %.2f ms at most",
                   static_cast<unsigned long long>(f.cost.samples), f.cost.mean_ms, f.cost.max_ms),
            "</figcaption>", server_legend(c), render_svg(c), "</figure>"});
  put(out, {window_table(f), statements_table(f), notes_list(f), "</section>"});
  return out;
}

}  // namespace

std::string server_section(const run::run_result& r, const phases& p) {
  const char* title = "The database's own figures";
  const std::vector<named_server> servers = servers_of(r);
  if (servers.size() == 1) return one_server_section(r.server, "server", title, p);
  std::string out;
  for (const named_server& s : servers) {
    const std::string id = s.index == 0 ? "server" : format("server-%zu", s.index + 1);
    const std::string heading = s.name.empty() ? title : std::string(title) + ": " + escape(s.name);
    out += one_server_section(*s.figures, id, heading, p);
  }
  return out;
}

}  // namespace tpcc::report::html
