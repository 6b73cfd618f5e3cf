// SPDX-License-Identifier: Apache-2.0
// app/tpcc/loader/ch_load.hpp: `load --ch`: CH-benCHmark's REGION, NATION and SUPPLIER filled.
//
// What: load_ch writes the three tables' rows (ch_population.hpp, from `seed`) in ONE
// transaction that ends by inserting the tpcc_meta entry schema::ch_loaded_meta, so the tables
// are filled whole or not at all. When that entry is already there (an earlier `load --ch`),
// it writes nothing and says so: running it again is harmless. The tables must exist
// (schema::create_ch_schema) and so must tpcc_meta (`init`). The TPC-C tables are not read: the
// three tables do not depend on the warehouse count.
//
// Awaiting load_ch:
//   Result: the outcome (failed naming the database's error, or "cancelled"), whether the
//           tables were already loaded, and the rows written.
//   Errors: std::bad_alloc only.
//   Cancellation: the chain's stop token, checked between chunks (a driver call in flight is
//                 abandoned by the driver); the transaction is rolled back, nothing is left.
//   Resumes on: the executor it was awaited on.
//   Thread-safety: one at a time per database (two at once: one fails on the primary keys).
#pragma once

#include <cstddef>
#include <cstdint>

#include "driver/database.hpp"
#include "driver/outcome.hpp"
#include "shoal/task.hpp"

namespace tpcc::loader {

struct ch_load_result {
  driver::outcome status;
  bool already_loaded = false;  // the marker was there: nothing written
  std::int64_t rows = 0;        // rows written (0 when already loaded or failed)
};

shoal::task<ch_load_result> load_ch(driver::database& db, std::uint64_t seed,
                                    std::size_t rows_per_copy = 2000);

}  // namespace tpcc::loader
