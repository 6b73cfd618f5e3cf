// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_chart.hpp: an inline SVG line chart for the HTML report, and HTML escaping.
//
// What: a chart is plain data (axes, shaded bands, lines of points); render_svg() draws it as
// one self-contained <svg> element (no script needed to see it) sized by its viewBox, so it
// scales to the page's width. A NaN y breaks a line (an interval with nothing to show); so that
// sparse data stays readable, a gap gets a thin dashed connector (class "gap"), and a line with
// gaps a dot on each point (class "dots"; at most 240 points, else only points alone). Every
// label is escaped. Lines carry class "line" and data-series=<series key> (the legend's
// buttons hide and show them); the colour comes from the series' CSS class (html.cpp's style).
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tpcc::report::html {

// Text safe inside an element or a double-quoted attribute: & < > " ' escaped.
[[nodiscard]] std::string escape(std::string_view text);

struct point {
  double x = 0, y = 0;
};

struct axis {
  double min = 0, max = 1;
  bool log = false;  // log10 scale; min must be > 0
  std::string title;
  std::vector<std::pair<double, std::string>> ticks;  // value, label
};

struct band {  // a shaded x range (a phase of the run)
  double from = 0, to = 0;
  std::string css_class;
  std::string label;
};

struct line {
  std::string key;        // data-series, e.g. "new-order" or "p90"
  std::string css_class;  // colour
  std::string label;      // tooltip
  std::vector<point> points;
};

struct chart {
  std::string label;  // aria-label
  axis x, y;
  std::vector<band> bands;
  std::vector<line> lines;
  int width = 960, height = 300;
};

[[nodiscard]] std::string render_svg(const chart& c);

// Tick helpers: about `target` evenly spaced "nice" ticks (1, 2, 5 x 10^n) over [min, max].
[[nodiscard]] std::vector<std::pair<double, std::string>> linear_ticks(double min, double max,
                                                                       int target);
// Time ticks in seconds, labelled m:ss or h:mm:ss.
[[nodiscard]] std::vector<std::pair<double, std::string>> time_ticks(double max_seconds);
// 1-2-5 ticks per decade over [min, max] (log axes), labelled as numbers.
[[nodiscard]] std::vector<std::pair<double, std::string>> log_ticks(double min, double max);
// The smallest "nice" value (1, 2, 5 x 10^n) at or above v.
[[nodiscard]] double nice_ceiling(double v);

}  // namespace tpcc::report::html
