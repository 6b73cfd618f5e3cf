// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_chart.cpp: inline SVG line charts (see html_chart.hpp).
#include "report/html_chart.hpp"
#include "report/text.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <initializer_list>

namespace tpcc::report::html {
namespace {

constexpr double margin_left = 70, margin_right = 18, margin_top = 22, margin_bottom = 44;

std::string num(double v) {
  std::array<char, 32> b{};
  std::snprintf(b.data(), b.size(), "%.1f", v);
  return b.data();
}

// Maps data to pixels inside the plot area.
struct frame {
  const chart& c;
  double left = margin_left, top = margin_top;
  double width = c.width - margin_left - margin_right;
  double height = c.height - margin_top - margin_bottom;

  static double unit(const axis& a, double v) {
    if (!a.log) return a.max == a.min ? 0 : (v - a.min) / (a.max - a.min);
    const double lo = std::log10(a.min), hi = std::log10(a.max);
    return hi == lo ? 0 : (std::log10(std::max(v, a.min)) - lo) / (hi - lo);
  }
  [[nodiscard]] double px(double v) const {
    return left + width * std::clamp(unit(c.x, v), 0.0, 1.0);
  }
  [[nodiscard]] double py(double v) const {
    return top + height * (1 - std::clamp(unit(c.y, v), 0.0, 1.0));
  }
};

std::string bands_svg(const frame& f) {
  std::string out;
  for (const band& b : f.c.bands) {
    if (b.to <= b.from) continue;
    const double x0 = f.px(b.from), x1 = f.px(b.to);
    put(out, {"<rect class=\"band ", escape(b.css_class), "\" x=\"", num(x0), "\" y=\"", num(f.top),
              "\" width=\"", num(x1 - x0), "\" height=\"", num(f.height), "\"><title>",
              escape(b.label), "</title></rect>"});
    if (x1 - x0 > 40) {
      put(out, {"<text class=\"band-label\" x=\"", num(x0 + 4), "\" y=\"", num(f.top + 12), "\">",
                escape(b.label), "</text>"});
    }
  }
  return out;
}

std::string grid_svg(const frame& f) {
  std::string out;
  const double bottom = f.top + f.height, right = f.left + f.width;
  for (const auto& [v, label] : f.c.y.ticks) {
    const double y = f.py(v);
    put(out, {"<line class=\"grid\" x1=\"", num(f.left), "\" x2=\"", num(right), "\" y1=\"", num(y),
              "\" y2=\"", num(y), "\"/><text class=\"tick\" text-anchor=\"end\" x=\"",
              num(f.left - 6), "\" y=\"", num(y + 4), "\">", escape(label), "</text>"});
  }
  for (const auto& [v, label] : f.c.x.ticks) {
    const double x = f.px(v);
    put(out, {"<line class=\"grid\" x1=\"", num(x), "\" x2=\"", num(x), "\" y1=\"", num(f.top),
              "\" y2=\"", num(bottom), "\"/><text class=\"tick\" text-anchor=\"middle\" x=\"",
              num(x), "\" y=\"", num(bottom + 16), "\">", escape(label), "</text>"});
  }
  put(out, {"<rect class=\"frame\" x=\"", num(f.left), "\" y=\"", num(f.top), "\" width=\"",
            num(f.width), "\" height=\"", num(f.height), "\"/>"});
  return out;
}

std::string axis_titles_svg(const frame& f) {
  const double mid_y = f.top + f.height / 2;
  std::string out;
  put(out, {"<text class=\"axis-title\" text-anchor=\"middle\" x=\"", num(f.left + f.width / 2),
            "\" y=\"", num(f.c.height - 6.0), "\">", escape(f.c.x.title),
            "</text><text class=\"axis-title\" text-anchor=\"middle\" transform=\"translate(14 ",
            num(mid_y), ") rotate(-90)\">", escape(f.c.y.title), "</text>"});
  return out;
}

// Runs of finite points become polylines; a point alone becomes a 3 px dash, so it shows.
std::string path_data(const frame& f, const std::vector<point>& points) {
  std::string d;
  for (std::size_t i = 0; i < points.size();) {
    if (!std::isfinite(points[i].y)) {
      ++i;
      continue;
    }
    std::size_t end = i + 1;
    while (end < points.size() && std::isfinite(points[end].y)) ++end;
    const double y0 = f.py(points[i].y);
    if (end - i == 1) {
      const double x0 = f.px(points[i].x);
      put(d, {"M", num(x0 - 1.5), " ", num(y0), "L", num(x0 + 1.5), " ", num(y0)});
    } else {
      for (std::size_t k = i; k < end; ++k) {
        put(d, {k == i ? "M" : "L", num(f.px(points[k].x)), " ", num(f.py(points[k].y))});
      }
    }
    i = end;
  }
  return d;
}

// Sparse data stays readable: a thin dashed connector across each gap (the intervals with
// nothing to show), so the eye can follow the series...
std::string gap_data(const frame& f, const std::vector<point>& points) {
  std::string d;
  std::size_t last = points.size();  // the last finite point seen; none yet
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!std::isfinite(points[i].y)) continue;
    if (last != points.size() && i > last + 1) {
      put(d, {"M", num(f.px(points[last].x)), " ", num(f.py(points[last].y)), "L",
              num(f.px(points[i].x)), " ", num(f.py(points[i].y))});
    }
    last = i;
  }
  return d;
}

// ...and a dot on every point of a line with gaps (when it has at most max_dotted points), or
// else on each point that stands alone.
constexpr std::size_t max_dotted = 240;

std::string dot_data(const frame& f, const std::vector<point>& points, bool gappy) {
  const auto finite = [&](std::size_t i) {
    return i < points.size() && std::isfinite(points[i].y);
  };
  std::size_t count = 0;
  for (std::size_t i = 0; i < points.size(); ++i) count += finite(i) ? 1 : 0;
  const bool every = gappy && count <= max_dotted;
  std::string d;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!finite(i)) continue;
    const bool alone = (i == 0 || !finite(i - 1)) && !finite(i + 1);
    if (!every && !alone) continue;
    put(d, {"M", num(f.px(points[i].x) - 2.2), " ", num(f.py(points[i].y)),
            "a2.2 2.2 0 1 0 4.4 0a2.2 2.2 0 1 0 -4.4 0"});
  }
  return d;
}

std::string series_path(const char* kind, const line& l, const std::string& d) {
  std::string out;
  put(out, {"<path class=\"", kind, " ", escape(l.css_class), "\" data-series=\"", escape(l.key),
            "\" d=\"", d, "\"><title>", escape(l.label), "</title></path>"});
  return out;
}

std::string lines_svg(const frame& f) {
  std::string out;
  for (const line& l : f.c.lines) {
    const std::string d = path_data(f, l.points);
    if (d.empty()) continue;
    out += series_path("line", l, d);
    const std::string gaps = gap_data(f, l.points);
    if (!gaps.empty()) out += series_path("gap", l, gaps);
    const std::string dots = dot_data(f, l.points, !gaps.empty());
    if (!dots.empty()) out += series_path("dots", l, dots);
  }
  return out;
}

}  // namespace

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string render_svg(const chart& c) {
  const frame f{c};
  std::string out;
  put(out, {"<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ",
            std::to_string(c.width), " ", std::to_string(c.height), "\" role=\"img\" aria-label=\"",
            escape(c.label), "\">", bands_svg(f), grid_svg(f), axis_titles_svg(f), lines_svg(f),
            "</svg>"});
  return out;
}

double nice_ceiling(double v) {
  if (!(v > 0)) return 1;
  const double decade = std::pow(10.0, std::floor(std::log10(v)));
  for (const double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * decade >= v * (1 - 1e-9)) return m * decade;
  }
  return 10 * decade;
}

std::vector<std::pair<double, std::string>> linear_ticks(double min, double max, int target) {
  std::vector<std::pair<double, std::string>> ticks;
  if (!(max > min) || target < 1) return ticks;
  const double step = nice_ceiling((max - min) / target);
  std::array<char, 32> b{};
  for (double v = std::ceil(min / step) * step; v <= max * (1 + 1e-9); v += step) {
    std::snprintf(b.data(), b.size(), "%g", std::abs(v) < step * 1e-6 ? 0.0 : v);
    ticks.emplace_back(v, b.data());
  }
  return ticks;
}

std::vector<std::pair<double, std::string>> time_ticks(double max_seconds) {
  constexpr std::array<double, 14> steps{1,   2,   5,   10,  15,   30,   60,
                                         120, 300, 600, 900, 1800, 3600, 7200};
  double step = steps.back();
  for (const double s : steps) {
    if (max_seconds / s <= 10) {
      step = s;
      break;
    }
  }
  std::vector<std::pair<double, std::string>> ticks;
  std::array<char, 32> b{};
  for (double v = 0; v <= max_seconds + 1e-9; v += step) {
    const auto t = static_cast<long long>(v);
    if (t >= 3600) {
      std::snprintf(b.data(), b.size(), "%lld:%02lld:%02lld", t / 3600, t / 60 % 60, t % 60);
    } else {
      std::snprintf(b.data(), b.size(), "%lld:%02lld", t / 60, t % 60);
    }
    ticks.emplace_back(v, b.data());
  }
  return ticks;
}

std::vector<std::pair<double, std::string>> log_ticks(double min, double max) {
  std::vector<std::pair<double, std::string>> ticks;
  if (!(min > 0) || !(max > min)) return ticks;
  std::array<char, 32> b{};
  for (double decade = std::pow(10.0, std::floor(std::log10(min))); decade <= max; decade *= 10) {
    for (const double m : {1.0, 2.0, 5.0}) {
      const double v = m * decade;
      if (v < min * (1 - 1e-9) || v > max * (1 + 1e-9)) continue;
      std::snprintf(b.data(), b.size(), "%g", v);
      ticks.emplace_back(v, b.data());
    }
  }
  return ticks;
}

}  // namespace tpcc::report::html
