// SPDX-License-Identifier: Apache-2.0
// The SQLite driver's entry points (sqlite.hpp): sessions lent through the generic pool.
#include "driver/sqlite/sqlite.hpp"

#include <utility>

#include "driver/pool/session_pool.hpp"
#include "driver/sqlite/session.hpp"

namespace tpcc::driver::sqlite {

shoal::task<connect_result> connect(std::string path, settings tuning) {
  return sqlite_session::open(std::move(path), tuning);
}

shoal::task<open_result> open(std::string path, const database_options& options, settings tuning) {
  std::string description = "sqlite:" + path;
  return pool::session_pool::open({
      .size = options.connections,
      .description = std::move(description),
      .factory = [path = std::move(path), tuning] { return sqlite_session::open(path, tuning); },
  });
}

}  // namespace tpcc::driver::sqlite
