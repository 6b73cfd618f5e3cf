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
//   slow=TYPE:DURATION  optional, repeatable: every round trip of a transaction of TYPE
//                     (new_order, payment, order_status, delivery, stock_level; told apart by
//                     its statements' names, its commit included) is answered DURATION later
//                     still: a database slower on one type, for `compare` and its tests.
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

#include <array>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "driver/open.hpp"
#include "shoal/task.hpp"

namespace tpcc::driver::sim {

inline constexpr std::string_view prefix = "sim:";

// The transaction types slow= names, each with the prefix of its statements' names.
struct slowed_type {
  std::string_view name;    // as slow= spells it: "new_order"
  std::string_view prefix;  // of its statements: "tpcc_no_"
};
inline constexpr std::array<slowed_type, 5> slowed_types{{{"new_order", "tpcc_no_"},
                                                          {"payment", "tpcc_pay_"},
                                                          {"order_status", "tpcc_os_"},
                                                          {"delivery", "tpcc_dl_"},
                                                          {"stock_level", "tpcc_sl_"}}};
// Extra latency per slowed_types entry (slow=).
using slow_table = std::array<std::chrono::nanoseconds, slowed_types.size()>;

struct settings {
  std::chrono::nanoseconds latency{0};  // per round trip
  std::int64_t capacity = 0;            // transactions per second; 0: unlimited
  slow_table slow{};                    // added to a round trip of that type (slow=)
};

// The slowed_types index of a statement `name`, or slowed_types.size() when none matches.
[[nodiscard]] std::size_t slowed_index(std::string_view name) noexcept;

// True when `target` names the simulated database (starts with "sim:").
[[nodiscard]] bool accepts(std::string_view target) noexcept;

// The settings of a sim: target, or what is wrong with it (naming the setting).
[[nodiscard]] std::variant<settings, std::string> parse_target(std::string_view target);

// The target in its canonical form, e.g. "sim:latency=5ms",
// "sim:latency=5ms,slow=new_order:20ms" or "sim:latency=5ms,capacity=500".
[[nodiscard]] std::string canonical(const settings& s);

shoal::task<open_result> open(const database_options& options);

}  // namespace tpcc::driver::sim
