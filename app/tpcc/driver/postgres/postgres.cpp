// The PostgreSQL driver's entry point (postgres.hpp): validate the target, then a pool of
// pipelined sessions.
#include "driver/postgres/postgres.hpp"

#include <libpq-fe.h>

#include <memory>
#include <string_view>
#include <utility>

#include "driver/pool/session_pool.hpp"
#include "driver/postgres/connection.hpp"
#include "driver/postgres/pg_session.hpp"

namespace tpcc::driver::postgres {

namespace {

// Opens one session; a plain function so the factory's lambda is not itself a coroutine.
shoal::task<pool::factory_result> connect_session(std::string conninfo, std::string shown,
                                                  isolation level,
                                                  std::chrono::milliseconds timeout) {
  auto conn = std::make_unique<connection>();
  outcome connected = co_await conn->connect(conninfo, shown, timeout);
  if (!connected.ok()) co_return std::move(connected);
  co_return std::unique_ptr<session>(std::make_unique<pg_session>(std::move(conn), level));
}

// libpq's own parse of the target: empty when valid, else its complaint.
std::string parse_error(const std::string& target) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(target.c_str(), &error);
  std::string why;
  if (options == nullptr) {
    why = error != nullptr ? one_line(error) : "out of memory";
  }
  PQconninfoFree(options);
  if (error != nullptr) PQfreemem(error);
  return why;
}

}  // namespace

bool accepts(std::string_view target) noexcept {
  return target.starts_with("postgresql://") || target.starts_with("postgres://") ||
         target.find('=') != std::string_view::npos;
}

shoal::task<open_result> open(database_options options) {
  std::string shown = redact(options.target);
  if (std::string why = parse_error(options.target); !why.empty()) {
    co_return outcome::make(
        outcome_kind::failed, "",
        "--db '" + shown + "' is not a valid PostgreSQL connection string: " + why);
  }
  std::string conninfo = options.target;
  const isolation level = options.level;
  const std::chrono::milliseconds timeout = options.connect_timeout;
  pool::session_pool_options pool_options{
      .size = options.connections,
      .description = "PostgreSQL " + shown,
      .factory = [conninfo, shown, level,
                  timeout] { return connect_session(conninfo, shown, level, timeout); },
  };
  co_return co_await pool::session_pool::open(std::move(pool_options));
}

}  // namespace tpcc::driver::postgres
