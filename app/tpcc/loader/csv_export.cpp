// SPDX-License-Identifier: Apache-2.0
// The population written as CSV files (csv_export.hpp).
#include "loader/csv_export.hpp"

#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <span>
#include <string_view>
#include <utility>
#include <variant>

#include "driver/bulk.hpp"
#include "loader/population.hpp"
#include "schema/meta.hpp"

namespace tpcc::loader {
namespace {

using driver::outcome;

constexpr std::size_t csv_chunk_rows = 2000;

void append_csv_integer(std::int64_t n, std::string& out) {
  std::array<char, 24> buffer{};  // an int64 takes at most 20
  const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), n).ptr;
  out.append(buffer.data(), end);
}

// Fixed notation ("300000", not "3e+05"), the fewest digits that read back as the same double.
void append_csv_decimal(double d, std::string& out) {
  std::array<char, 352> buffer{};  // fixed notation of any double fits in 330
  const auto end =
      std::to_chars(buffer.data(), buffer.data() + buffer.size(), d, std::chars_format::fixed).ptr;
  out.append(buffer.data(), end);
}

bool needs_quotes(std::string_view text) {
  return text.empty() || text.find_first_of(",\"\r\n") != std::string_view::npos;
}

void append_csv_text(std::string_view text, std::string& out) {
  if (!needs_quotes(text)) {
    out += text;
    return;
  }
  out += '"';
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

std::string csv_path(const std::string& dir, std::string_view table) {
  return dir + "/" + std::string(table) + ".csv";
}

outcome unwritable(const std::string& path) {
  return outcome::make(driver::outcome_kind::failed, "",
                       "cannot write " + path + ": " + std::strerror(errno));
}

// The header line: the column names, comma-separated.
std::string header_of(std::span<const std::string_view> columns) {
  std::string line;
  for (const std::string_view c : columns) {
    if (!line.empty()) line += ',';
    line += c;
  }
  return line + '\n';
}

// The nine table files of one export, each opened (and its header written) on first use.
class table_files {
 public:
  explicit table_files(const std::string& dir) : dir_(dir) {}

  // Appends `rows` to its table's file; the outcome says which file failed.
  outcome write(const driver::bulk_rows& rows) {
    const std::size_t t = table_index(rows.table);
    std::ofstream& file = files_.at(t);
    if (!file.is_open()) {
      file.open(csv_path(dir_, rows.table), std::ios::binary | std::ios::trunc);
      file << header_of(rows.columns);
    }
    line_.clear();
    const std::size_t width = rows.columns.size();
    for (std::size_t i = 0; i < rows.values.size(); ++i) {
      append_csv_field(rows.values[i], line_);
      line_ += (i + 1) % width == 0 ? '\n' : ',';
    }
    file.write(line_.data(), static_cast<std::streamsize>(line_.size()));
    if (!file) return unwritable(csv_path(dir_, rows.table));
    counts_.at(t) += static_cast<std::int64_t>(rows.rows());
    return outcome::success();
  }

  // Closes every file; failed naming the first that could not be flushed.
  outcome close() {
    for (std::size_t t = 0; t < files_.size(); ++t) {
      if (!files_[t].is_open()) continue;
      files_[t].close();
      if (!files_[t]) return unwritable(csv_path(dir_, load_tables()[t]));
    }
    return outcome::success();
  }

  [[nodiscard]] const std::array<std::int64_t, table_count>& counts() const { return counts_; }

 private:
  std::string dir_;
  std::array<std::ofstream, table_count> files_;
  std::array<std::int64_t, table_count> counts_{};
  std::string line_;
};

outcome write_population(population p, table_files& files) {
  driver::bulk_rows rows;
  while (p.next(rows, csv_chunk_rows)) {
    outcome wrote = files.write(rows);
    if (!wrote.ok()) return wrote;
  }
  return outcome::success();
}

// A small file written whole: tpcc_meta.csv or tpcc_loaded.csv.
outcome write_small(const std::string& dir, std::string_view table, const std::string& text) {
  const std::string path = csv_path(dir, table);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file) return unwritable(path);
  return outcome::success();
}

std::string meta_text(const csv_options& o) {
  schema::load_meta meta;
  meta.warehouses = o.warehouses;
  meta.constants = load_constants_for(o.seed);
  std::string text = "name,value\n";
  for (const auto& [name, number] : schema::meta_entries(meta)) {
    text.append(name).append(",").append(std::to_string(number)).append("\n");
  }
  return text;
}

std::string loaded_text(const csv_options& o) {
  std::string text = "w_id\n";
  if (o.items) text += "0\n";
  for (std::int64_t w = o.first_warehouse; w <= o.last_warehouse; ++w) {
    text += std::to_string(w) + "\n";
  }
  return text;
}

outcome write_tables(const csv_options& o, table_files& files) {
  const std::string load_time = o.load_time.empty() ? load_time_now() : o.load_time;
  const random::nurand_constants constants = load_constants_for(o.seed);
  if (o.items) {
    outcome wrote = write_population(population::items(o.seed), files);
    if (!wrote.ok()) return wrote;
    if (o.on_part) o.on_part(0);
  }
  for (std::int64_t w = o.first_warehouse; w <= o.last_warehouse; ++w) {
    outcome wrote = write_population(population::warehouse(o.seed, w, constants, load_time), files);
    if (!wrote.ok()) return wrote;
    if (o.on_part) o.on_part(w);
  }
  return files.close();
}

}  // namespace

void append_csv_field(const driver::value& v, std::string& out) {
  if (const auto* n = std::get_if<std::int64_t>(&v)) {
    append_csv_integer(*n, out);
  } else if (const auto* d = std::get_if<double>(&v)) {
    append_csv_decimal(*d, out);
  } else if (const auto* s = std::get_if<std::string>(&v)) {
    append_csv_text(*s, out);
  }  // NULL: nothing
}

csv_result export_csv(const csv_options& options) {
  csv_result result;
  table_files files(options.dir);
  result.status = write_tables(options, files);
  result.rows = files.counts();
  if (!result.status.ok()) return result;
  if (options.items) {
    result.status = write_small(options.dir, "tpcc_meta", meta_text(options));
    if (!result.status.ok()) return result;
  }
  result.status = write_small(options.dir, "tpcc_loaded", loaded_text(options));
  return result;
}

}  // namespace tpcc::loader
