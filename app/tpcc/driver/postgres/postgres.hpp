// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/postgres/postgres.hpp: the PostgreSQL driver's entry point.
//
// libpq in non-blocking mode on shoal's reactor, pipeline mode, a pool of sessions. Used only
// by open.cpp: transactions see the driver interface (database.hpp), never this.
#pragma once

#include <string>
#include <string_view>

#include "driver/open.hpp"

namespace tpcc::driver::postgres {

// `options.target` is a libpq URI or key/value string.
shoal::task<open_result> open(database_options options);

// True when `target` looks like a PostgreSQL connection string (URI scheme postgres:// or
// postgresql://, or key=value pairs).
[[nodiscard]] bool accepts(std::string_view target) noexcept;

// What is wrong with `target` as a libpq connection string, without quoting any part of it
// that may be the password; empty when libpq reads it. Refuses a URI whose user-info holds a
// raw '@' or '/' (libpq would split the password there).
[[nodiscard]] std::string check_target(const std::string& target);

}  // namespace tpcc::driver::postgres
