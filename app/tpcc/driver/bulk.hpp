// app/tpcc/driver/bulk.hpp: rows written in bulk by the loader (session::copy, session.hpp).
//
// What: a batch of rows for one table: the table's name, the columns in the order the values
// come, and the values row-major (columns.size() per row). PostgreSQL writes it with COPY FROM
// STDIN; SQLite with one prepared INSERT run per row. Thread-safety: a plain value.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "driver/value.hpp"

namespace tpcc::driver {

struct bulk_rows {
  std::string_view table;
  std::span<const std::string_view> columns;
  std::vector<value> values;  // row-major

  [[nodiscard]] std::size_t rows() const noexcept {
    return columns.empty() ? 0 : values.size() / columns.size();
  }
  void clear() noexcept { values.clear(); }
};

}  // namespace tpcc::driver
