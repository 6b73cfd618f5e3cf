// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_endpoint_kinds.cpp: each endpoint's per-type throughput over time (see
// html_endpoint_kinds.hpp).
#include "report/html_endpoint_kinds.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "report/html_sections.hpp"
#include "report/text.hpp"
#include "txn/kind.hpp"

namespace tpcc::report::html {
namespace {

std::uint64_t completed_of_kind(const stats::endpoint_interval& i, std::size_t kind) {
  return kind < txn::kind_count ? i.kinds[kind].completed : i.completed;
}

// One endpoint's chart: a line per type, on the y scale [0, top].
std::string endpoint_kinds_chart(const run::endpoint_result& e, const phases& p, std::size_t per,
                                 double top) {
  chart c;
  c.label = "completed transactions per minute over time, per type, of " + e.target;
  c.width = 520;
  c.height = 220;
  c.x = time_axis(p);
  c.y = {0, top, false, "completed per minute", linear_ticks(0, top, 4)};
  c.bands = phase_bands(p);
  for (const txn::kind k : txn::all_kinds) {
    const std::size_t i = txn::index(k);
    c.lines.push_back({kind_key(k), "c-" + std::to_string(i),
                       e.target + " " + std::string(txn::name(k)),
                       endpoint_per_minute(e.series, per, i)});
  }
  std::string out = "<div><h3>";
  put(out, {escape(e.target),
            format(" (warehouses %lld-%lld)", static_cast<long long>(e.first_warehouse),
                   static_cast<long long>(e.last_warehouse)),
            "</h3>", render_svg(c), "</div>"});
  return out;
}

// The highest per-type point of any endpoint, as a y axis' top.
double endpoint_kinds_top(const run::run_result& r, std::size_t per) {
  double top = 1;
  for (const run::endpoint_result& e : r.endpoints) {
    for (std::size_t k = 0; k < txn::kind_count; ++k) {
      for (const point& pt : endpoint_per_minute(e.series, per, k)) top = std::max(top, pt.y);
    }
  }
  return nice_ceiling(top * 1.05);
}

}  // namespace

std::vector<point> endpoint_per_minute(const std::vector<stats::endpoint_interval>& s,
                                       std::size_t per, std::size_t kind) {
  std::vector<point> out;
  for (std::size_t i = 0; i < s.size(); i += per) {
    const std::size_t end = std::min(s.size(), i + per);
    double done = 0;
    for (std::size_t j = i; j < end; ++j)
      done += static_cast<double>(completed_of_kind(s[j], kind));
    const double from = s[i].start_seconds, to = s[end - 1].end_seconds;
    if (to > from) out.push_back({(from + to) / 2, done * 60.0 / (to - from)});
  }
  return out;
}

std::string endpoint_kinds_figure(const run::run_result& r, const phases& p) {
  if (r.endpoints.empty() || r.endpoints.front().series.empty()) return {};
  const std::size_t intervals = r.endpoints.front().series.size();
  const std::size_t per = std::max<std::size_t>(1, (intervals + max_points - 1) / max_points);
  const double top = endpoint_kinds_top(r, per);
  std::string out =
      "<figure id=\"endpoint-types\"><figcaption>Each endpoint's transactions committed or "
      "rolled back per minute, per type, by the interval they ended in (every phase; one y scale "
      "for all).</figcaption><div class=\"grid2\">";
  for (const run::endpoint_result& e : r.endpoints) out += endpoint_kinds_chart(e, p, per, top);
  out += "</div><div class=\"legend\">";
  for (const txn::kind k : txn::all_kinds) {
    out += legend_button(kind_key(k), "c-" + std::to_string(txn::index(k)), txn::name(k));
  }
  return out + "</div></figure>";
}

}  // namespace tpcc::report::html
