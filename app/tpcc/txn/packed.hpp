// SPDX-License-Identifier: Apache-2.0
// app/tpcc/txn/packed.hpp: reading the lists a stored procedure packs into one text column.
//
// What: the procedures of --procedures (schema/procedure_texts.hpp) return one row; a
// transaction's lines come back as one text, fields separated by ',' and lines by ';'.
// `split` cuts such a text (empty fields kept: an undelivered line's date is empty);
// `int_field` and `number_field` read one field, and throw std::logic_error naming the text when
// it is not a number (a procedure that does not match the client: a bug, never data).
// `joined` writes a list of integers the same way, for a procedure's parameters.
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tpcc::txn {

[[nodiscard]] std::vector<std::string_view> split(std::string_view text, char separator);
[[nodiscard]] std::int64_t int_field(std::string_view text);
[[nodiscard]] double number_field(std::string_view text);
[[nodiscard]] std::string joined(std::span<const std::int64_t> values);

}  // namespace tpcc::txn
