// SPDX-License-Identifier: Apache-2.0
// From a --db target to a database (open.hpp).
#include "driver/open.hpp"

#include <filesystem>
#include <utility>

#include "driver/mysql/mysql.hpp"
#include "driver/postgres/postgres.hpp"
#include "driver/sim/sim.hpp"
#include "driver/sqlite/sqlite.hpp"
#include "driver/target.hpp"

namespace tpcc::driver {

shoal::task<open_result> open_database(database_options options) {
  switch (engine_of(options.target)) {
    case engine::sqlite: {
      std::string path(sqlite_path(options.target));
      if (path.empty()) {
        co_return outcome::make(outcome_kind::failed, "", "--db sqlite: needs a file path");
      }
      if (!options.create_sqlite_file && path != ":memory:" && !std::filesystem::exists(path)) {
        co_return outcome::make(outcome_kind::failed, "",
                                "SQLite file '" + path +
                                    "' does not exist (nothing was created; `shoal-tpcc init "
                                    "--db sqlite:" +
                                    path + "` creates it, or run the default job)");
      }
      co_return co_await sqlite::open(std::move(path), options);
    }
    case engine::sim:
      co_return co_await sim::open(options);
    case engine::postgres:
      co_return co_await postgres::open(std::move(options));
    case engine::mysql:
      co_return co_await mysql::open(std::move(options));
    case engine::unknown:
      break;
  }
  co_return outcome::make(outcome_kind::failed, "",
                          "--db '" + redact(options.target) +
                              "' is neither sqlite:PATH, sim:latency=DURATION, a PostgreSQL "
                              "connection string (postgresql://... or key=value ...) nor a "
                              "MySQL/MariaDB URI (mysql://... or mariadb://...)");
}

}  // namespace tpcc::driver
