// SPDX-License-Identifier: Apache-2.0
// app/tpcc/loader/csv_export.hpp: the population written as CSV files (`load --csv DIR`).
//
// What: export_csv writes the rows a load with the same seed would write (population.hpp),
// one file per table named `<table>.csv` (item.csv ... stock.csv), each opening with a header
// line of its column names in schema order, then tpcc_meta.csv (the warehouse count and the
// NURand load constants drawn from the seed, as `load` records them; only with the items) and,
// last, tpcc_loaded.csv (the parts written: 0 for ITEM, then the warehouse ids), so that an
// export broken off leaves no tpcc_loaded.csv and an import of it is not taken as loaded.
// The format (docs/tpcc/csv-export.md): RFC 4180 with "\n" line ends; integers in decimal,
// decimals in fixed notation with the fewest digits that read back as the same double
// ("12.5", "300000", "-10", never "3e+05"),
// timestamps "YYYY-MM-DD HH:MM:SS" (UTC), texts quoted only when they hold a comma, a quote or
// a line end (quotes doubled), NULL an empty unquoted field, an empty text "".
// A shard (first_warehouse..last_warehouse) writes its own warehouses; ITEM and tpcc_meta are
// written only when `items` (shard 0's).
// The directory must exist and be empty of these files (the command checks it up front);
// files are created, never appended to. Runs on the calling thread and blocks; never prints.
// Thread-safety: any thread; two exports must not share a directory.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>

#include "driver/outcome.hpp"
#include "driver/value.hpp"
#include "loader/progress.hpp"

namespace tpcc::loader {

struct csv_options {
  std::string dir;
  std::int64_t warehouses = 1;  // the whole load's count (tpcc_meta's)
  std::int64_t first_warehouse = 1;
  std::int64_t last_warehouse = 1;  // < first: no warehouse (an empty shard)
  bool items = true;                // ITEM and tpcc_meta
  std::uint64_t seed = 1;
  std::string load_time;  // empty: load_time_now()
  // Called on the calling thread after each part (0: ITEM, else the warehouse) is written.
  std::function<void(std::int64_t part)> on_part;
};

struct csv_result {
  driver::outcome status;
  std::array<std::int64_t, table_count> rows{};  // per table, in load_tables() order
};

// Writes the files. Result: ok with the rows per table; failed naming the file that could not
// be written. Errors: std::bad_alloc.
[[nodiscard]] csv_result export_csv(const csv_options& options);

// Appends one value as a CSV field (the format above).
void append_csv_field(const driver::value& v, std::string& out);

}  // namespace tpcc::loader
