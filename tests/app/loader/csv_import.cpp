// SPDX-License-Identifier: Apache-2.0
// The imports of a CSV export, as scripts (csv_import.hpp).
#include "csv_import.hpp"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string_view>
#include <vector>

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
