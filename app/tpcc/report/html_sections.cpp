// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_sections.cpp: the chart sections of the HTML report (see
// html_sections.hpp).
#include "report/html_sections.hpp"
#include "report/text.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <initializer_list>
#include <string_view>

namespace tpcc::report::html {
namespace {

std::string kind_class(std::size_t k) { return std::string("c-").append(std::to_string(k)); }

}  // namespace

std::vector<band> phase_bands(const phases& p) {
  return {{0, p.warmup_end, "warmup", "warm-up"},
          {p.warmup_end, p.measure_end, "measure", "measurement"},
          {p.measure_end, p.run_end, "drain", "drain"}};
}

axis time_axis(const phases& p) {
  const double end = std::max(p.run_end, 1.0);
  return {0, end, false, "time since the terminals started (m:ss)", time_ticks(end)};
}

namespace {

std::vector<point> points_of(const timeline& t, const std::vector<double>& ys) {
  std::vector<point> out;
  out.reserve(ys.size());
  for (std::size_t i = 0; i < ys.size(); ++i) out.push_back({t.seconds[i], ys[i]});
  return out;
}

double finite_max(const std::vector<double>& ys) {
  double m = 0;
  for (const double y : ys) {
    if (std::isfinite(y)) m = std::max(m, y);
  }
  return m;
}

}  // namespace

std::string legend_button(const std::string& key, const std::string& css, std::string_view label) {
  std::string out;
  put(out, {"<button type=\"button\" class=\"", css, "\" data-series=\"", escape(key), "\">",
            escape(label), "</button>"});
  return out;
}

namespace {

std::string kinds_legend() {
  std::string out = "<div class=\"legend\">";
  for (const txn::kind k : txn::all_kinds) {
    out += legend_button(kind_key(k), kind_class(txn::index(k)), txn::name(k));
  }
  return out + "</div>";
}

std::string section(std::string_view title, std::string_view caption, const std::string& body) {
  std::string out;
  put(out, {"<section><h2>", title, "</h2><figure><figcaption>", caption, "</figcaption>", body,
            "</figure></section>"});
  return out;
}

std::string empty_section(std::string_view title, std::string_view why) {
  std::string out;
  put(out, {"<section><h2>", title, "</h2><p class=\"empty\">", why, "</p></section>"});
  return out;
}

std::string per_point_note(const timeline& t) {
  if (t.intervals_per_point <= 1) return "one point per interval";
  std::string out = "each point merges ";
  put(out, {std::to_string(t.intervals_per_point), " intervals"});
  return out;
}

std::string kind_latency_chart(const timeline& t, const phases& p, std::size_t k) {
  chart c;
  c.label = std::string(txn::name(txn::all_kinds[k])) + " response time over time";
  c.width = 520;
  c.height = 250;
  c.x = time_axis(p);
  const double top = nice_ceiling(std::max(finite_max(t.ms[k].back()) * 1.05, 0.001));
  c.y = {0, top, false, "ms", linear_ticks(0, top, 4)};
  c.bands = phase_bands(p);
  constexpr std::array<std::string_view, 3> names{"p50", "p90", "p99"};
  for (std::size_t f = 0; f < names.size(); ++f) {
    c.lines.push_back({std::string(names[f]), std::string("c-").append(names[f]),
                       std::string(txn::name(txn::all_kinds[k])) + " " + std::string(names[f]),
                       points_of(t, t.ms[k][f])});
  }
  std::string out = "<div><h3>";
  put(out, {escape(txn::name(txn::all_kinds[k])), "</h3>", render_svg(c), "</div>"});
  return out;
}

// Axis ticks for percentile curves: x = log10(1 / (1 - p)).
std::vector<std::pair<double, std::string>> percentile_ticks(double last) {
  constexpr std::array<std::string_view, 6> labels{"0%",    "90%",    "99%",
                                                   "99.9%", "99.99%", "99.999%"};
  std::vector<std::pair<double, std::string>> ticks;
  for (std::size_t i = 0; i < labels.size() && static_cast<double>(i) <= last + 1e-9; ++i) {
    ticks.emplace_back(static_cast<double>(i), std::string(labels[i]));
  }
  return ticks;
}

}  // namespace

std::string kind_key(txn::kind k) {
  std::string key(txn::name(k));
  for (char& ch : key) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return key;
}

std::string throughput_section(const timeline& t, const phases& p) {
  constexpr std::string_view title = "Throughput over time";
  if (t.seconds.empty()) return empty_section(title, "No interval series in this result.");
  chart c;
  c.label = "completed transactions per minute over time, per type";
  c.x = time_axis(p);
  double top = 0;
  for (const auto& ys : t.per_minute) top = std::max(top, finite_max(ys));
  top = nice_ceiling(std::max(top * 1.05, 1.0));
  c.y = {0, top, false, "completed per minute", linear_ticks(0, top, 5)};
  c.bands = phase_bands(p);
  for (const txn::kind k : txn::all_kinds) {
    const std::size_t i = txn::index(k);
    c.lines.push_back(
        {kind_key(k), kind_class(i), std::string(txn::name(k)), points_of(t, t.per_minute[i])});
  }
  std::string caption =
      "Transactions committed or rolled back per minute, by the interval they ended in; ";
  put(caption, {per_point_note(t), ". Shaded: warm-up, measurement, drain."});
  return section(title, caption, render_svg(c) + kinds_legend());
}

std::string latency_section(const timeline& t, const phases& p) {
  constexpr std::string_view title = "Response time over time";
  if (t.seconds.empty()) return empty_section(title, "No interval series in this result.");
  std::string grid = "<div class=\"grid2\">";
  for (std::size_t k = 0; k < txn::kind_count; ++k) grid += kind_latency_chart(t, p, k);
  grid += "</div><div class=\"legend\">";
  grid += legend_button("p50", "c-p50", "p50") + legend_button("p90", "c-p90", "p90") +
          legend_button("p99", "c-p99", "p99") + "</div>";
  std::string caption =
      "Response-time percentiles of the transactions that ended in each interval (from the "
      "interval histograms; ";
  put(caption, {per_point_note(t),
                ", percentiles of merged buckets, never averaged). Gaps: "
                "nothing ended."});
  return section(title, caption, grid);
}

std::string distribution_section(const run::run_result& r) {
  constexpr std::string_view title = "Response-time distribution (measurement interval)";
  chart c;
  c.label = "response time by percentile, per type";
  double last = 0, low = 1e18, high = 0;
  for (const txn::kind k : txn::all_kinds) {
    auto curve = percentile_curve(r.results.kinds[txn::index(k)].response);
    for (const point& q : curve) {
      last = std::max(last, q.x);
      if (q.y > 0) low = std::min(low, q.y);
      high = std::max(high, q.y);
    }
    c.lines.push_back(
        {kind_key(k), kind_class(txn::index(k)), std::string(txn::name(k)), std::move(curve)});
  }
  if (high <= 0) return empty_section(title, "Nothing completed in the measurement interval.");
  last = std::max(last, 1.0);
  const double bottom = std::pow(10.0, std::floor(std::log10(std::max(low, 0.001))));
  c.x = {0, last, false, "percentile (log scale of 1 / (1 - p))", percentile_ticks(last)};
  c.y = {bottom, nice_ceiling(high), true, "ms (log scale)", log_ticks(bottom, nice_ceiling(high))};
  return section(title,
                 "Response time at or below which each percentage of the type's transactions "
                 "completed, from the cumulative histograms (bucket upper edges: at most 3.1% "
                 "above the true value).",
                 render_svg(c) + kinds_legend());
}

}  // namespace tpcc::report::html
