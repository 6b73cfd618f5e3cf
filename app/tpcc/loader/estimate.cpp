// SPDX-License-Identifier: Apache-2.0
// app/tpcc/loader/estimate.cpp: rows and bytes of a load (see estimate.hpp).
#include "loader/estimate.hpp"

#include <array>
#include <cstdio>

#include "loader/population.hpp"

namespace tpcc::loader {
namespace {

struct table_shape {
  std::string_view table;
  std::int64_t rows_per_warehouse;  // 0: a fixed count, `fixed_rows`
  std::int64_t fixed_rows;
  std::int64_t row_bytes;
};

constexpr std::int64_t customers = districts_per_warehouse * customers_per_district;
constexpr std::int64_t orders = districts_per_warehouse * orders_per_district;

constexpr std::array<table_shape, 9> shapes{{
    {"warehouse", 1, 0, 89},
    {"district", districts_per_warehouse, 0, 95},
    {"customer", customers, 0, 655},
    {"history", customers, 0, 46},
    {"orders", orders, 0, 24},
    {"new_order", districts_per_warehouse* new_orders_per_district, 0, 8},
    {"order_line", orders * 10, 0, 54},
    {"stock", item_count, 0, 306},
    {"item", 0, item_count, 82},
}};

std::string line(std::string_view table, std::int64_t rows, std::int64_t bytes) {
  std::array<char, 128> text{};
  std::snprintf(text.data(), text.size(), "  %-12.*s %15lld %12.1f MiB\n",
                static_cast<int>(table.size()), table.data(), static_cast<long long>(rows),
                static_cast<double>(bytes) / 1048576.0);
  return text.data();
}

}  // namespace

std::vector<table_estimate> estimate(std::int64_t warehouses) {
  std::vector<table_estimate> out;
  for (const table_shape& s : shapes) {
    const std::int64_t rows =
        s.rows_per_warehouse == 0 ? s.fixed_rows : s.rows_per_warehouse * warehouses;
    out.push_back({s.table, rows, rows * s.row_bytes});
  }
  return out;
}

std::string format_estimate(std::int64_t warehouses) {
  std::string out = "load --dry-run: " + std::to_string(warehouses) +
                    (warehouses == 1 ? " warehouse" : " warehouses") +
                    ", nothing written\n  table                   rows             data\n";
  std::int64_t rows = 0, bytes = 0;
  for (const table_estimate& t : estimate(warehouses)) {
    out += line(t.table, t.rows, t.bytes);
    rows += t.rows;
    bytes += t.bytes;
  }
  out += line("total", rows, bytes);
  out +=
      "  (the data at TPC-C's nominal row widths; a database stores more: row headers,\n"
      "  indexes, free space, often 1.5-2x on PostgreSQL)\n";
  return out;
}

}  // namespace tpcc::loader
