// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/sim/sim.hpp: the simulated database, for measuring the client's own cost.
//
// What: `--db sim:latency=5ms` opens no database at all. Its sessions answer every round trip
// (one statement, or one pipelined batch with its commit) after the configured latency, with
// rows shaped as each transaction's statements expect (answers.hpp), so the five transactions
// run their real code paths while the client is measured at sizes no database here can serve.
// It is a capacity mode, never the default, and labels itself: database::simulated() is true
// and describe() says "SIMULATED". Used only by open.cpp, the command line (to check a target
// early) and the driver's own tests.
//
// Target syntax: `sim:` followed by comma-separated key=value settings:
//   latency=DURATION  required; an integer with a unit: us, ms or s (0 answers at once).
//   capacity=N        optional; transactions per second the simulated database serves (an
//                     integer, 1 to 10^9): beyond it they queue on one shared server and their
//                     latency grows (server_clock.hpp). Default: unlimited.
// Anything else is refused by parse_target with a message naming what was wrong.
//
// The simulated database has as many warehouses as database_options::warehouses (the run's
// --warehouses): it answers the load bookkeeping (schema/meta.hpp) as a complete load of that
// size, so a run sees it as loaded. It holds no data: writes change nothing, and `init`,
// `load`, `check` and `clean` are refused by the command line.
//
// Awaiting open:
//   Result: the database (a session_pool of simulated sessions behind a labelled database), or
//           failed naming what was wrong (a malformed target, no warehouse count).
//   Errors: std::bad_alloc; std::logic_error when not awaited from a thread_pool.
//   Cancellation: none: nothing to wait for.
//   Resumes on: the executor it was awaited on.
//   Thread-safety: any number of opens at once.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "driver/open.hpp"
#include "shoal/task.hpp"

namespace tpcc::driver::sim {

inline constexpr std::string_view prefix = "sim:";

struct settings {
  std::chrono::nanoseconds latency{0};  // per round trip
  std::int64_t capacity = 0;            // transactions per second; 0: unlimited
};

// True when `target` names the simulated database (starts with "sim:").
[[nodiscard]] bool accepts(std::string_view target) noexcept;

// The settings of a sim: target, or what is wrong with it (naming the setting).
[[nodiscard]] std::variant<settings, std::string> parse_target(std::string_view target);

// The target in its canonical form, e.g. "sim:latency=5ms" or "sim:latency=5ms,capacity=500".
[[nodiscard]] std::string canonical(const settings& s);

shoal::task<open_result> open(const database_options& options);

}  // namespace tpcc::driver::sim
