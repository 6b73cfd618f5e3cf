// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_assets.hpp: the HTML report's inline style sheet and script.
//
// What: constants embedded in every page (report/html.cpp), so the page needs nothing from the
// network. Colours: one per transaction type (c-0..c-4, txn::kind order) and one per
// percentile (c-p50, c-p90, c-p99), set as --c and used by lines and legend keys alike. The
// script only adds behaviour to what is already drawn: legend buttons hide and show a series,
// and once laid out every chart is marked with the number of lines that have a non-empty box
// (svg data-drawn-lines; body data-charts-drawn counts the charts with at least one), which is
// what the headless-browser test reads. Thread-safety: constants.
#pragma once

#include <string_view>

namespace tpcc::report::html {

inline constexpr std::string_view style = R"css(
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2430;
  background: #f4f6f9; margin: 0; }
main { max-width: 1180px; margin: 0 auto; padding: 20px 24px 40px; }
h1 { font-size: 22px; margin: 4px 0 2px; }
h2 { font-size: 17px; margin: 28px 0 6px; }
h3 { font-size: 14px; margin: 4px 0; }
.sub { color: #5b6575; margin: 0 0 12px; }
.card { background: #fff; border: 1px solid #dde2ea; border-radius: 8px; padding: 14px 18px; }
.banner { border-radius: 6px; padding: 8px 12px; margin: 8px 0; font-weight: 600; }
.banner.warn { background: #fff4d6; border: 1px solid #e8c35a; }
.banner.bad { background: #fde2e1; border: 1px solid #e59a96; }
.facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(210px, 1fr)); gap: 10px 22px;
  margin: 10px 0 0; }
.facts div { min-width: 0; }
.facts dt { color: #5b6575; font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.facts dd { margin: 0; font-size: 16px; font-weight: 600; overflow-wrap: anywhere; }
.facts dd.big { font-size: 24px; }
figure { margin: 0; }
figcaption { color: #5b6575; font-size: 13px; margin: 2px 0 6px; }
.grid2 { display: grid; grid-template-columns: repeat(auto-fit, minmax(460px, 1fr)); gap: 12px; }
svg.chart { width: 100%; height: auto; display: block; }
svg .band { stroke: none; }
svg .band.warmup { fill: #eceff3; }
svg .band.measure { fill: #eaf6ec; }
svg .band.drain { fill: #fbefe3; }
svg .band-label { font-size: 11px; fill: #6b7482; }
svg .grid { stroke: #e3e7ed; stroke-width: 1; }
svg .frame { fill: none; stroke: #b9c0ca; }
svg .tick { font-size: 11px; fill: #5b6575; }
svg .axis-title { font-size: 12px; fill: #3a4350; }
svg .line { fill: none; stroke: var(--c); stroke-width: 1.6; stroke-linejoin: round; }
svg .line.c-p50 { stroke-width: 1.2; }
svg .gap { fill: none; stroke: var(--c); stroke-width: 1; stroke-dasharray: 3 3; opacity: .55; }
svg .dots { fill: var(--c); stroke: none; }
.c-0 { --c: #2f6fdb; } .c-1 { --c: #e8751a; } .c-2 { --c: #2e9d4c; } .c-3 { --c: #c83a3a; }
.c-4 { --c: #8a55c4; } .c-p50 { --c: #3aa0a0; } .c-p90 { --c: #2f5fc8; } .c-p99 { --c: #d0453a; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 14px; margin: 6px 0 0 70px; }
.legend button { font: inherit; font-size: 13px; background: none; border: 0; padding: 2px 4px;
  cursor: pointer; color: inherit; }
.legend button::before { content: ""; display: inline-block; width: 18px; height: 3px;
  background: var(--c); vertical-align: middle; margin-right: 6px; }
.legend button.off { opacity: .35; text-decoration: line-through; }
table { border-collapse: collapse; width: 100%; background: #fff; font-variant-numeric: tabular-nums; }
th, td { padding: 6px 10px; border-bottom: 1px solid #e3e7ed; text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
th { background: #f0f3f7; font-weight: 600; font-size: 13px; }
td.fail { color: #b3261e; font-weight: 600; }
table.settings th, table.settings td { text-align: left; white-space: normal; }
table.settings th { width: 28%; }
th { white-space: normal; overflow-wrap: anywhere; }
table.verdict td { white-space: normal; }
td.note, td.message { white-space: normal; text-align: left; overflow-wrap: anywhere; min-width: 12em; }
.empty { color: #5b6575; font-style: italic; }
footer { color: #7a8391; font-size: 12px; margin-top: 24px; }
)css";

inline constexpr std::string_view script = R"js(
(function () {
  document.querySelectorAll('.legend button').forEach(function (b) {
    b.addEventListener('click', function () {
      var off = b.classList.toggle('off');
      var fig = b.closest('figure');
      fig.querySelectorAll('path[data-series="' + b.dataset.series + '"]').forEach(function (p) {
        p.style.display = off ? 'none' : '';
      });
    });
  });
  var drawn = 0;
  document.querySelectorAll('svg.chart').forEach(function (svg) {
    var n = 0;
    svg.querySelectorAll('path.line').forEach(function (p) {
      var box = p.getBBox();
      if (box.width > 0 || box.height > 0) n++;
    });
    svg.setAttribute('data-drawn-lines', String(n));
    if (n > 0) drawn++;
  });
  document.body.setAttribute('data-charts-drawn', String(drawn));
})();
)js";

}  // namespace tpcc::report::html
