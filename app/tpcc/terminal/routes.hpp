// SPDX-License-Identifier: Apache-2.0
// app/tpcc/terminal/routes.hpp: which endpoint a warehouse's transactions go to.
//
// What: a run over several endpoints of one database (--db given more than once) gives each
// endpoint a contiguous range of the warehouses; a terminal, and a deliverer delivering for a
// warehouse, send that warehouse's transactions to its endpoint and count them on that
// endpoint's recorder as well as on the run's. route_of() finds the route of a warehouse.
// Lifetime: the databases and recorders are the run's (run/run.hpp) and outlive the terminals.
// Thread-safety: read-only once terminals start (the recorders are thread-safe).
#pragma once

#include <cstdint>
#include <span>

#include "driver/database.hpp"
#include "stats/recorder.hpp"

namespace tpcc::terminal {

struct endpoint_route {
  std::int64_t first = 1, last = 0;  // the warehouses it serves, inclusive
  driver::database* db = nullptr;
  stats::recorder* recorder = nullptr;  // its own figures
};

/// The route whose range holds `w_id`; nullptr when none does (a run with one endpoint has no
/// routes). Linear: a run has a handful of endpoints.
[[nodiscard]] inline const endpoint_route* route_of(std::span<const endpoint_route> routes,
                                                    std::int64_t w_id) noexcept {
  for (const endpoint_route& r : routes) {
    if (w_id >= r.first && w_id <= r.last) return &r;
  }
  return nullptr;
}

}  // namespace tpcc::terminal
