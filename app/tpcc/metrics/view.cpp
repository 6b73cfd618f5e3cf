// SPDX-License-Identifier: Apache-2.0
// app/tpcc/metrics/view.cpp: taking a scrape's figures (see view.hpp).
#include "metrics/view.hpp"

namespace tpcc::metrics {

run_view take_view(const run::run_control& control, const figures::run_screen& settings) {
  run_view v;
  v.now = control.current_phase();
  auto live = control.live();
  if (!live) return v;
  v.screen = settings;
  v.screen->view = std::move(*live);
  v.totals = control.totals();
  v.servers = control.servers();
  v.endpoints = control.endpoints();
  v.ch = control.analytic();
  return v;
}

}  // namespace tpcc::metrics
