// SPDX-License-Identifier: Apache-2.0
// The rows of clause 4.3.3.1 (population.hpp): the plan and the chunking; the rows themselves
// are in population_rows.cpp.
#include "loader/population.hpp"

#include <algorithm>
#include <ctime>
#include <numeric>
#include <string_view>
#include <utility>

#include "loader/row_writer.hpp"
#include "random/strings.hpp"
#include "schema/schema.hpp"

namespace tpcc::loader {
namespace {

using random::rng;

constexpr std::int64_t orders_per_warehouse = districts_per_warehouse * orders_per_district;
constexpr std::int64_t customers_per_warehouse = districts_per_warehouse * customers_per_district;

// A generator per (seed, w_id): the golden-ratio step keeps neighbouring warehouses' seeds far
// apart before rng's own splitmix64 mixing.
rng warehouse_rng(std::uint64_t seed, std::int64_t w_id) {
  return rng(seed + 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(w_id + 1));
}

// One independent stream per table, in a fixed order.
std::array<rng, 9> split_streams(rng& base) {
  return {base.split(), base.split(), base.split(), base.split(), base.split(),
          base.split(), base.split(), base.split(), base.split()};
}

// The table of each part, in the order of population::part.
constexpr std::array<std::string_view, 9> part_tables{"item",      "warehouse",  "district",
                                                      "customer",  "history",    "orders",
                                                      "new_order", "order_line", "stock"};

}  // namespace

std::string load_time_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::string text(19, '\0');
  text.resize(std::strftime(text.data(), text.size() + 1, "%Y-%m-%d %H:%M:%S", &utc));
  return text;
}

random::nurand_constants load_constants_for(std::uint64_t seed) noexcept {
  rng r(seed);
  return random::load_constants(r);
}

population::population(std::uint64_t seed, std::int64_t w_id)
    : w_id_(w_id), streams_([&] {
        rng base = warehouse_rng(seed, w_id);
        return split_streams(base);
      }()) {}

population population::items(std::uint64_t seed) {
  population p(seed, 0);
  p.parts_ = {part::item};
  p.total_rows_ = item_count;
  return p;
}

population population::warehouse(std::uint64_t seed, std::int64_t w_id,
                                 random::nurand_constants constants, std::string load_time) {
  population p(seed, w_id);
  p.constants_ = constants;
  p.load_time_ = std::move(load_time);
  p.parts_ = {part::warehouse, part::district,  part::customer,   part::history,
              part::orders,    part::new_order, part::order_line, part::stock};
  p.plan_orders(p.streams_[static_cast<std::size_t>(part::orders)].split());
  for (part each : p.parts_) p.total_rows_ += p.rows_of(each);
  return p;
}

// O_OL_CNT of every order and O_C_ID as a random permutation of 1..3000 per district, drawn
// up front so ORDERS and ORDER_LINE agree and the row count is exact.
void population::plan_orders(rng r) {
  ol_cnt_.resize(orders_per_warehouse);
  o_c_id_.resize(orders_per_warehouse);
  for (std::int64_t d = 0; d < districts_per_warehouse; ++d) {
    auto first = o_c_id_.begin() + d * orders_per_district;
    auto last = first + orders_per_district;
    std::iota(first, last, std::int16_t{1});
    for (std::int64_t i = orders_per_district - 1; i > 0; --i) {  // Fisher-Yates
      std::swap(first[i], first[r.uniform(0, i)]);
    }
  }
  for (std::uint8_t& n : ol_cnt_) n = static_cast<std::uint8_t>(r.uniform(5, 15));
  order_lines_ = std::accumulate(ol_cnt_.begin(), ol_cnt_.end(), std::int64_t{0});
}

std::int64_t population::rows_of(part p) const noexcept {
  switch (p) {
    case part::item:
    case part::stock:
      return item_count;
    case part::warehouse:
      return 1;
    case part::district:
      return districts_per_warehouse;
    case part::customer:
    case part::history:
      return customers_per_warehouse;
    case part::orders:
      return orders_per_warehouse;
    case part::new_order:
      return districts_per_warehouse * new_orders_per_district;
    case part::order_line:
      return order_lines_;
  }
  return 0;
}

bool population::next(driver::bulk_rows& out, std::size_t max_rows) {
  while (part_index_ < parts_.size() && row_ == rows_of(parts_[part_index_])) {
    ++part_index_;
    row_ = 0;
  }
  row_writer w(out.values);
  if (part_index_ == parts_.size()) {
    w.finish();
    return false;
  }
  const part p = parts_[part_index_];
  const schema::table* t = schema::find_table(part_tables[static_cast<std::size_t>(p)]);
  out.table = t->name;
  out.columns = t->columns;
  const std::int64_t end =
      std::min(rows_of(p), row_ + static_cast<std::int64_t>(max_rows == 0 ? 1 : max_rows));
  for (; row_ < end; ++row_) write_row(p, w);
  w.finish();
  return true;
}

void population::write_row(part p, row_writer& w) {
  switch (p) {
    case part::item:
      return item_row(w);
    case part::warehouse:
      return warehouse_row(w);
    case part::district:
      return district_row(w);
    case part::customer:
      return customer_row(w);
    case part::history:
      return history_row(w);
    case part::orders:
      return orders_row(w);
    case part::new_order:
      return new_order_row(w);
    case part::order_line:
      return order_line_row(w);
    case part::stock:
      return stock_row(w);
  }
}

}  // namespace tpcc::loader
