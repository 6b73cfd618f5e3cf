// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/mysql/mysql.hpp: the MySQL / MariaDB driver's entry point.
//
// MariaDB Connector/C's non-blocking API on shoal's reactor, server-side prepared statements,
// a pool of sessions (docs/tpcc/design/mysql-driver.md). Used only by open.cpp and target.cpp:
// transactions see the driver interface (database.hpp), never this.
#pragma once

#include <string_view>

#include "driver/open.hpp"

namespace tpcc::driver::mysql {

// `options.target` is a mysql:// or mariadb:// URI (uri.hpp).
shoal::task<open_result> open(database_options options);

// True when `target` starts with mysql:// or mariadb://.
[[nodiscard]] bool accepts(std::string_view target) noexcept;

}  // namespace tpcc::driver::mysql
