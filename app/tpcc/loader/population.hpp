// SPDX-License-Identifier: Apache-2.0
// app/tpcc/loader/population.hpp: the rows of the initial database (TPC-C clause 4.3.3.1).
//
// What: a population generates, lazily and chunk by chunk, either the ITEM table (100,000 rows)
// or everything of one warehouse: WAREHOUSE (1 row), DISTRICT (10), CUSTOMER (30,000), HISTORY
// (30,000), ORDERS (30,000), NEW_ORDER (9,000), ORDER_LINE (5..15 per order, about 300,000) and
// STOCK (100,000). `next(out, max_rows)` fills `out` with at most max_rows rows of ONE table,
// columns in schema::find_table(table)->columns order, and returns false once every table is
// done. The values follow clause 4.3.3.1 (see docs/tpcc/design/tpcc-loader.md for each column).
//
// Deterministic: the same seed (and w_id, constants, load time) gives the same rows whatever the
// chunk sizes, so a resumed load regenerates exactly the warehouse it lost. Each table draws
// from its own stream, split from a generator seeded by (seed, w_id).
// Fast: `out` is overwritten in place (row_writer.hpp): pass the same bulk_rows to every call
// and text values stop allocating after the first chunk.
//
// Lifetime: a plain value; `out.table` and `out.columns` point into static schema data.
// Thread-safety: none; one population per loading coroutine.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "driver/bulk.hpp"
#include "random/nurand.hpp"
#include "random/rng.hpp"

namespace tpcc::loader {

class row_writer;

// Clause 4.3.3.1's cardinalities.
inline constexpr std::int64_t item_count = 100'000;
inline constexpr std::int64_t districts_per_warehouse = 10;
inline constexpr std::int64_t customers_per_district = 3'000;
inline constexpr std::int64_t orders_per_district = 3'000;
inline constexpr std::int64_t first_new_order = 2'101;  // orders 2101..3000 are undelivered
inline constexpr std::int64_t new_orders_per_district = orders_per_district - first_new_order + 1;

// The load time the rows carry (C_SINCE, H_DATE, O_ENTRY_D, OL_DELIVERY_D): now, UTC,
// "YYYY-MM-DD HH:MM:SS".
[[nodiscard]] std::string load_time_now();

// The NURand C constants a load draws from `seed` (clause 2.1.6) and records in tpcc_meta.
[[nodiscard]] random::nurand_constants load_constants_for(std::uint64_t seed) noexcept;

class population {
 public:
  // The ITEM table.
  [[nodiscard]] static population items(std::uint64_t seed);
  // Warehouse `w_id` (>= 1). `constants` gives C for C_LAST's NURand; `load_time` is the text
  // of C_SINCE, H_DATE, O_ENTRY_D and OL_DELIVERY_D ("YYYY-MM-DD HH:MM:SS").
  [[nodiscard]] static population warehouse(std::uint64_t seed, std::int64_t w_id,
                                            random::nurand_constants constants,
                                            std::string load_time);

  // Fills `out` with the next at most `max_rows` (>= 1) rows of one table; false when done
  // (then `out` holds no rows).
  bool next(driver::bulk_rows& out, std::size_t max_rows);

  // Rows this population produces in all (exact: order lines are drawn up front).
  [[nodiscard]] std::int64_t total_rows() const noexcept { return total_rows_; }
  // 0 for ITEM, else the warehouse id.
  [[nodiscard]] std::int64_t w_id() const noexcept { return w_id_; }

 private:
  enum class part : std::uint8_t {
    item,
    warehouse,
    district,
    customer,
    history,
    orders,
    new_order,
    order_line,
    stock,
  };
  static constexpr std::size_t part_count = 9;

  population(std::uint64_t seed, std::int64_t w_id);
  void plan_orders(random::rng r);
  [[nodiscard]] std::int64_t rows_of(part p) const noexcept;
  void write_row(part p, row_writer& w);

  void item_row(row_writer& w);
  void warehouse_row(row_writer& w);
  void district_row(row_writer& w);
  void customer_row(row_writer& w);
  void history_row(row_writer& w);
  void orders_row(row_writer& w);
  void new_order_row(row_writer& w);
  void order_line_row(row_writer& w);
  void stock_row(row_writer& w);
  void address(random::rng& r, row_writer& w);

  std::int64_t w_id_;
  random::nurand_constants constants_;
  std::string load_time_;
  std::vector<part> parts_;
  std::size_t part_index_ = 0;
  std::int64_t row_ = 0;  // rows of the current part already produced
  std::array<random::rng, part_count> streams_;
  std::vector<std::uint8_t> ol_cnt_;  // per order, district-major: O_OL_CNT
  std::vector<std::int16_t> o_c_id_;  // per order: O_C_ID (a permutation per district)
  std::int64_t order_lines_ = 0;      // sum of ol_cnt_
  std::size_t line_order_ = 0;        // ORDER_LINE cursor: the order
  std::int64_t line_number_ = 1;      //   and its next line number
  std::int64_t total_rows_ = 0;
};

}  // namespace tpcc::loader
