// SPDX-License-Identifier: Apache-2.0
// One statement per order-line count (line_statements.hpp).
#include "txn/line_statements.hpp"

#include <stdexcept>

namespace tpcc::txn {

line_statements::line_statements(std::string_view name, const text_of& sql, const text_of& mysql) {
  for (std::size_t i = 0; i < max_lines; ++i) {
    const std::size_t lines = i + 1;
    names_[i].assign(name).append(lines < 10 ? "_0" : "_").append(std::to_string(lines));
    texts_[i] = sql(lines);
    if (mysql) mysql_texts_[i] = mysql(lines);
    statements_[i] = driver::statement{names_[i], texts_[i], mysql_texts_[i]};
  }
}

const driver::statement& line_statements::of(std::size_t lines) const {
  if (lines < 1 || lines > max_lines) {
    throw std::out_of_range("New-Order with " + std::to_string(lines) + " lines (1.." +
                            std::to_string(max_lines) + ")");
  }
  return statements_[lines - 1];
}

std::string placeholder_list(std::size_t first, std::size_t count) {
  std::string out;
  for (std::size_t k = 0; k < count; ++k) {
    if (k > 0) out.append(", ");
    out.append("$").append(std::to_string(first + k));
  }
  return out;
}

}  // namespace tpcc::txn
