// SPDX-License-Identifier: Apache-2.0
// The MySQL / MariaDB driver's entry point (mysql.hpp): read the target, then a pool of
// sessions.
#include "driver/mysql/mysql.hpp"

#include <memory>
#include <utility>

#include "driver/mysql/connection.hpp"
#include "driver/mysql/my_session.hpp"
#include "driver/mysql/uri.hpp"
#include "driver/pool/session_pool.hpp"

namespace tpcc::driver::mysql {

namespace {

// Opens one session; a plain function so the factory's lambda is not itself a coroutine.
shoal::task<pool::factory_result> connect_session(uri target, std::string shown, isolation level,
                                                  std::chrono::milliseconds timeout) {
  auto conn = std::make_unique<connection>();
  outcome connected = co_await conn->connect(target, shown, level, timeout);
  if (!connected.ok()) co_return std::move(connected);
  const bool text = target.statements == protocol::text;
  co_return std::unique_ptr<session>(
      std::make_unique<my_session>(std::move(conn), text, std::move(target)));
}

}  // namespace

bool accepts(std::string_view target) noexcept { return is_mysql_uri(target); }

shoal::task<open_result> open(database_options options) {
  std::string shown = redact(options.target);
  auto parsed = parse_uri(options.target);
  if (auto* wrong = std::get_if<std::string>(&parsed)) {
    co_return outcome::make(outcome_kind::failed, "",
                            "--db '" + shown + "' is not a valid MySQL/MariaDB URI: " + *wrong);
  }
  uri target = std::get<uri>(std::move(parsed));
  const isolation level = options.level;
  const std::chrono::milliseconds timeout = options.connect_timeout;
  pool::session_pool_options pool_options{
      .size = options.connections,
      .description = "MySQL " + shown,
      .factory = [target, shown, level,
                  timeout] { return connect_session(target, shown, level, timeout); },
  };
  co_return co_await pool::session_pool::open(std::move(pool_options));
}

}  // namespace tpcc::driver::mysql
