// SPDX-License-Identifier: Apache-2.0
// app/tpcc/loader/ch_population.hpp: the rows of CH-benCHmark's REGION, NATION and SUPPLIER.
//
// What: `ch_population` generates, chunk by chunk, REGION (5 rows: TPC-H's regions), NATION (62
// rows: one per character a TPC-C state code can start with, keyed by its character code, each
// in one of the five regions) and SUPPLIER (10,000 rows keyed 0..9999, TPC-H's columns). The
// analytic queries reach them from TPC-C's rows by the paper's mappings: a stock row's supplier
// is (s_w_id * s_i_id) % 10000, a customer's nation ascii(substr(c_state, 1, 1)).
// `next(out, max_rows)` fills `out` with at most max_rows rows of ONE table, columns in
// schema::ch_tables() order, and returns false once all three are done.
// Deterministic: the same seed gives the same rows whatever the chunk sizes.
// docs/tpcc/ch-benchmark.md gives every column's rule.
//
// Lifetime: a plain value; `out.table` and `out.columns` point into static schema data.
// Thread-safety: none; one population per loading coroutine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "driver/bulk.hpp"
#include "random/rng.hpp"

namespace tpcc::loader {

inline constexpr std::int64_t ch_supplier_count = 10'000;
inline constexpr std::int64_t ch_nation_count = 62;
inline constexpr std::int64_t ch_region_count = 5;

// One NATION row's fixed part: its key, name and region.
struct ch_nation {
  std::int64_t key;
  std::string_view name;
  std::int64_t region;
};

// The 62 nations, by key; and the 5 region names, by key (0..4).
[[nodiscard]] std::span<const ch_nation> ch_nations() noexcept;
[[nodiscard]] std::span<const std::string_view> ch_regions() noexcept;

class ch_population {
 public:
  explicit ch_population(std::uint64_t seed);

  // Fills `out` with the next at most `max_rows` (>= 1) rows of one table; false when done
  // (then `out` holds no rows).
  bool next(driver::bulk_rows& out, std::size_t max_rows);

 private:
  random::rng rng_;
  std::size_t table_ = 0;  // index into schema::ch_tables()
  std::int64_t row_ = 0;   // rows of the current table already produced
};

}  // namespace tpcc::loader
