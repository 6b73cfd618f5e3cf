// SPDX-License-Identifier: Apache-2.0
// app/tpcc/loader/load_part.hpp: one part of a load (ITEM or one warehouse) in one transaction.
//
// What: borrows a session, begins, writes the part's population (population.hpp) chunk by
// chunk, inserts the part's tpcc_loaded marker and commits with it: the part is committed
// whole or not at all. Used by load() (loader.hpp), `parallel` of them at a time.
// `part_plan` is what every part shares; it is read-only while parts run.
//
// Awaiting load_part:
//   Result: ok once committed; else the failed outcome (its transaction rolled back), or
//           failed "cancelled" when the chain was stopped.
//   Errors: std::bad_alloc only.
//   Cancellation: checked between chunks; a driver call in flight is abandoned by the driver.
//                 The rollback itself is shielded from the stop, so it runs.
//   Resumes on: the executor it was awaited on.
//   Thread-safety: any number at once, each on its own part; the plan is shared read-only and
//                  the progress is thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "driver/database.hpp"
#include "driver/outcome.hpp"
#include "loader/loader.hpp"
#include "loader/progress.hpp"
#include "random/nurand.hpp"
#include "shoal/task.hpp"

namespace tpcc::loader {

struct part_plan {
  std::uint64_t seed = 0;
  random::nurand_constants constants;
  std::string load_time;  // C_SINCE, H_DATE, O_ENTRY_D, OL_DELIVERY_D
  std::size_t rows_per_copy = 2000;
  load_method method = load_method::copy;
  load_progress* progress = nullptr;
};

// The outcome of a load stopped by its stop token.
[[nodiscard]] driver::outcome cancelled_outcome();

// Loads ITEM (w_id 0) or warehouse w_id.
shoal::task<driver::outcome> load_part(driver::database& db, const part_plan& plan,
                                       std::int64_t w_id);

}  // namespace tpcc::loader
