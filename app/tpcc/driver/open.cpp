// From a --db target to a database (open.hpp).
#include "driver/open.hpp"

#include <string_view>
#include <utility>

#include "driver/postgres/postgres.hpp"
#include "driver/sim/sim.hpp"
#include "driver/sqlite/sqlite.hpp"

namespace tpcc::driver {

shoal::task<open_result> open_database(database_options options) {
  const std::string_view target = options.target;
  constexpr std::string_view sqlite_prefix = "sqlite:";
  if (target.starts_with(sqlite_prefix)) {
    std::string path(target.substr(sqlite_prefix.size()));
    if (path.empty()) {
      co_return outcome::make(outcome_kind::failed, "", "--db sqlite: needs a file path");
    }
    co_return co_await sqlite::open(std::move(path), options);
  }
  if (sim::accepts(target)) co_return co_await sim::open(options);
  if (postgres::accepts(options.target)) co_return co_await postgres::open(std::move(options));
  co_return outcome::make(outcome_kind::failed, "",
                          "--db '" + redact(options.target) +
                              "' is neither sqlite:PATH, sim:latency=DURATION nor a PostgreSQL "
                              "connection string (postgresql://... or key=value ...)");
}

}  // namespace tpcc::driver
