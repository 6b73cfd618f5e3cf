// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/postgres/copy_text.hpp: bulk rows in COPY's text format.
//
// What: the encoding COPY ... FROM STDIN reads by default: one line per row, columns separated
// by a tab, NULL as \N, and in text values a backslash, tab, newline or carriage return written
// as \\, \t, \n, \r (every other byte as is: the client encoding is the server's). Integers in
// decimal; doubles in std::to_chars' shortest form that reads back to the same double (the
// server's float8 and numeric inputs accept it, exponent included).
//
// Thread-safety: plain functions over values the caller owns.
#pragma once

#include <cstddef>
#include <string>

#include "driver/bulk.hpp"
#include "driver/value.hpp"

namespace tpcc::driver::postgres {

// Appends one value, escaped.
void append_copy_value(const value& v, std::string& out);

// Appends whole rows from row `first` on, stopping after the row that takes `out` to
// `max_bytes` or more (at least one row when any is left). Returns the index of the next row
// (rows.rows() when done). `rows` must be well formed (bulk_problem empty).
std::size_t append_copy_rows(const bulk_rows& rows, std::size_t first, std::size_t max_bytes,
                             std::string& out);

}  // namespace tpcc::driver::postgres
