// SPDX-License-Identifier: Apache-2.0
// The population as CSV files (loader/csv_export.hpp), without a database: each kind of value
// in the form the importers take, the files of a whole export and of a shard, the rows being
// the population's, and a directory that cannot be written named in the failure.
#include "loader/csv_export.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "driver/bulk.hpp"
#include "loader/population.hpp"
#include "schema/meta.hpp"
#include "schema/schema.hpp"
#include "support/temp_dir.hpp"

namespace {

using tpcc::driver::value;
using tpcc::loader::append_csv_field;
using tpcc::loader::csv_options;
using tpcc::loader::export_csv;

constexpr const char* fixed_time = "2024-05-06 07:08:09";

// An export of seed 77 at the fixed time into `dir`: warehouses first..last of `warehouses`.
csv_options csv_export_of(const tpcc::testing::temp_dir& dir, std::int64_t warehouses,
                          std::int64_t first, std::int64_t last, bool items) {
  csv_options o;
  o.dir = dir.path().string();
  o.warehouses = warehouses;
  o.first_warehouse = first;
  o.last_warehouse = last;
  o.items = items;
  o.seed = 77;
  o.load_time = fixed_time;
  return o;
}

std::string field(const value& v) {
  std::string out;
  append_csv_field(v, out);
  return out;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> files_in(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// What a file of `table` holds for the population `p`: the header, then its rows.
std::string expected_file(tpcc::loader::population p, std::string_view table) {
  std::string text;
  for (const std::string_view c : tpcc::schema::find_table(table)->columns) {
    text.append(text.empty() ? "" : ",").append(c);
  }
  text += '\n';
  tpcc::driver::bulk_rows rows;
  while (p.next(rows, 777)) {
    if (rows.table != table) continue;
    for (std::size_t i = 0; i < rows.values.size(); ++i) {
      append_csv_field(rows.values[i], text);
      text += (i + 1) % rows.columns.size() == 0 ? '\n' : ',';
    }
  }
  return text;
}

TEST(csv_export, WritesEachKindOfValueInAFormEveryImporterTakes) {
  EXPECT_EQ(field(std::int64_t{42}), "42");
  EXPECT_EQ(field(std::int64_t{-7}), "-7");
  EXPECT_EQ(field(12.5), "12.5");
  EXPECT_EQ(field(300000.0), "300000");  // fixed notation, never 3e+05
  EXPECT_EQ(field(-10.0), "-10");
  EXPECT_EQ(field(0.1234), "0.1234");
  EXPECT_EQ(field(std::string("2024-05-06 07:08:09")), "2024-05-06 07:08:09");
  EXPECT_EQ(field(std::string("plain")), "plain");
  EXPECT_EQ(field(std::string("a,b")), "\"a,b\"");
  EXPECT_EQ(field(std::string("say \"hi\"")), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(field(std::string("two\nlines")), "\"two\nlines\"");
  EXPECT_EQ(field(std::string()), "\"\"");  // an empty text is not NULL
  EXPECT_EQ(field(value{}), "");            // NULL: an empty unquoted field
}

TEST(csv_export, TheItemsPartWritesItemTheMetaAndTheLoadedList) {
  const tpcc::testing::temp_dir dir("shoal-csv-items");
  // No warehouse (1..0): the items only.
  const tpcc::loader::csv_result r = export_csv(csv_export_of(dir, 5, 1, 0, true));
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  EXPECT_EQ(files_in(dir.path()),
            (std::vector<std::string>{"item.csv", "tpcc_loaded.csv", "tpcc_meta.csv"}));
  EXPECT_EQ(r.rows[tpcc::loader::table_index("item")], tpcc::loader::item_count);
  EXPECT_EQ(slurp(dir.file("item.csv")),
            expected_file(tpcc::loader::population::items(77), "item"));
  EXPECT_EQ(slurp(dir.file("tpcc_loaded.csv")), "w_id\n0\n");
  tpcc::schema::load_meta meta;
  meta.warehouses = 5;
  meta.constants = tpcc::loader::load_constants_for(77);
  std::string text = "name,value\n";
  for (const auto& [name, number] : tpcc::schema::meta_entries(meta)) {
    text += std::string(name) + "," + std::to_string(number) + "\n";
  }
  EXPECT_EQ(slurp(dir.file("tpcc_meta.csv")), text);
}

TEST(csv_export, AShardWritesItsWarehousesRowsAndNoItemsOrMeta) {
  const tpcc::testing::temp_dir dir("shoal-csv-shard");
  const tpcc::loader::csv_result r = export_csv(csv_export_of(dir, 3, 2, 2, false));
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  EXPECT_EQ(files_in(dir.path()),
            (std::vector<std::string>{"customer.csv", "district.csv", "history.csv",
                                      "new_order.csv", "order_line.csv", "orders.csv", "stock.csv",
                                      "tpcc_loaded.csv", "warehouse.csv"}));
  EXPECT_EQ(r.rows[tpcc::loader::table_index("item")], 0);  // item
  EXPECT_EQ(slurp(dir.file("tpcc_loaded.csv")), "w_id\n2\n");
  const auto rows_of = [&] {
    return tpcc::loader::population::warehouse(77, 2, tpcc::loader::load_constants_for(77),
                                               fixed_time);
  };
  for (const char* table : {"warehouse", "orders", "order_line", "customer"}) {
    EXPECT_EQ(slurp(dir.file(std::string(table) + ".csv")), expected_file(rows_of(), table))
        << table;
  }
  // Undelivered orders: O_CARRIER_ID NULL, an empty field before O_OL_CNT.
  EXPECT_NE(slurp(dir.file("orders.csv")).find(",2024-05-06 07:08:09,,"), std::string::npos);
}

TEST(csv_export, ADirectoryThatCannotBeWrittenIsNamedInTheFailure) {
  csv_options o;
  o.dir = "/nonexistent-shoal-dir";
  o.last_warehouse = 0;
  const tpcc::loader::csv_result r = export_csv(o);
  EXPECT_FALSE(r.status.ok());
  EXPECT_NE(r.status.message.find("cannot write /nonexistent-shoal-dir/item.csv"),
            std::string::npos)
      << r.status.message;
}

}  // namespace
