// SPDX-License-Identifier: Apache-2.0
// What the load --shard and load --csv tests share (load_split_support.hpp).
#include "load_split_support.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string_view>
#include <thread>

#include "schema/schema.hpp"

namespace tpcc::testing {
namespace {

// Every file of an export, by table name.
std::vector<std::string> exported_tables() {
  std::vector<std::string> names;
  for (const schema::table& t : schema::tables()) names.emplace_back(t.name);
  names.emplace_back("tpcc_meta");
  names.emplace_back("tpcc_loaded");
  return names;
}

std::string file_of(const std::string& dir, const std::string& table) {
  return dir + "/" + table + ".csv";
}

bool nullable(std::string_view column) {
  return column == "o_carrier_id" || column == "ol_delivery_d";
}

// LOAD DATA's column list and SET clause: a NULL column read into @column, then NULLIF.
std::string load_data_columns(const std::string& table) {
  const schema::table* t = schema::find_table(table);
  if (t == nullptr) return {};  // tpcc_meta, tpcc_loaded: every column, in order
  std::string list;
  std::string set;
  for (const std::string_view c : t->columns) {
    list += std::string(list.empty() ? "" : ", ") + (nullable(c) ? "@" : "") + std::string(c);
    if (nullable(c)) set = " SET " + std::string(c) + " = NULLIF(@" + std::string(c) + ", '')";
  }
  return " (" + list + ")" + set;
}

}  // namespace

std::vector<binary_result> load_shards_together(const std::string& db, int shards,
                                                const std::string& warehouses,
                                                const std::vector<std::string>& extra) {
  std::vector<binary_result> results(static_cast<std::size_t>(shards));
  std::vector<std::thread> processes;
  for (int i = 0; i < shards; ++i) {
    std::vector<std::string> args{"load",
                                  "--db",
                                  db,
                                  "--shard",
                                  std::to_string(i) + "/" + std::to_string(shards),
                                  "--warehouses",
                                  warehouses,
                                  "--no-progress"};
    args.insert(args.end(), extra.begin(), extra.end());
    processes.emplace_back([&results, i, args = std::move(args)] {
      results[static_cast<std::size_t>(i)] = run_binary(args, std::chrono::seconds(300));
    });
  }
  for (std::thread& t : processes) t.join();
  return results;
}

void expect_check_passes(const std::string& db) {
  const binary_result r = run_binary({"check", "--db", db}, std::chrono::seconds(300));
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "check: all conditions passed in ")) << r.out;
  EXPECT_FALSE(contains(r.out, "FAIL")) << r.out;
}

std::string sqlite_import_script(const std::string& dir) {
  std::string script;
  for (const std::string& t : exported_tables()) {
    script += ".import --csv --skip 1 " + file_of(dir, t) + " " + t + "\n";
  }
  return script +
         "UPDATE orders SET o_carrier_id = NULL WHERE o_carrier_id = '';\n"
         "UPDATE order_line SET ol_delivery_d = NULL WHERE ol_delivery_d = '';\n";
}

std::string copy_script(const std::string& dir) {
  std::string script;
  for (const std::string& t : exported_tables()) {
    script += "\\copy " + t + " FROM '" + file_of(dir, t) + "' WITH (FORMAT csv, HEADER true)\n";
  }
  return script;
}

std::string load_data_script(const std::string& dir) {
  std::string script;
  for (const std::string& t : exported_tables()) {
    script += "LOAD DATA INFILE '" + file_of(dir, t) + "' INTO TABLE " + t +
              " FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"' ESCAPED BY '' "
              "LINES TERMINATED BY '\\n' IGNORE 1 LINES" +
              load_data_columns(t) + ";\n";
  }
  return script;
}

int run_shell(const std::string& command, const std::string& log_file, std::string& log) {
  const int status = std::system((command + " >" + log_file + " 2>&1").c_str());
  std::ifstream in(log_file);
  log.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return status;
}

}  // namespace tpcc::testing
