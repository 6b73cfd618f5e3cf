// SPDX-License-Identifier: Apache-2.0
// app/tpcc/loader/estimate.hpp: what a load of W warehouses writes, before anything is written
// (`shoal-tpcc load --dry-run`).
//
// What: estimate(W) gives, per table of clause 1.3, the rows the population of clause 4.3.3.1
// inserts (10 order lines per order on average) and their bytes at TPC-C's nominal row widths
// (the spec's typical row lengths: WAREHOUSE 89 B, DISTRICT 95, CUSTOMER 655, HISTORY 46,
// NEW-ORDER 8, ORDER 24, ORDER-LINE 54, ITEM 82, STOCK 306). A database stores more (row
// headers, indexes, free space: often 1.5-2x on PostgreSQL); the figure is the data itself.
// format_estimate(W) renders the table with a total.
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tpcc::loader {

struct table_estimate {
  std::string_view table;
  std::int64_t rows = 0;
  std::int64_t bytes = 0;
};

[[nodiscard]] std::vector<table_estimate> estimate(std::int64_t warehouses);
[[nodiscard]] std::string format_estimate(std::int64_t warehouses);

}  // namespace tpcc::loader
