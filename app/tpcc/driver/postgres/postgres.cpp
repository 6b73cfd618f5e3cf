// SPDX-License-Identifier: Apache-2.0
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

// Whether `word` is one of libpq's connection options.
bool is_keyword(std::string_view word) {
  PQconninfoOption* defaults = PQconndefaults();
  bool found = false;
  for (const PQconninfoOption* o = defaults; o != nullptr && o->keyword != nullptr; ++o) {
    found = found || word == o->keyword;
  }
  PQconninfoFree(defaults);
  return found;
}

// libpq's complaint with each "quoted" token hidden unless it is an option's name or a single
// character: libpq quotes what it could not read, which may be a piece of the password.
std::string without_tokens(std::string_view message) {
  std::string out;
  std::size_t shown = 0;
  for (std::size_t open = message.find('"'); open != std::string_view::npos;) {
    const std::size_t close = message.find('"', open + 1);
    if (close == std::string_view::npos) break;
    const std::string_view token = message.substr(open + 1, close - open - 1);
    out.append(message.substr(shown, open + 1 - shown));
    out.append(token.size() == 1 || is_keyword(token) ? token : std::string_view("..."));
    shown = close;
    open = message.find('"', close + 1);
  }
  return out.append(message.substr(shown));
}

// libpq's own parse of the target: empty when valid, else its complaint (tokens hidden).
std::string parse_error(const std::string& target) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(target.c_str(), &error);
  std::string why;
  if (options == nullptr) {
    why = error != nullptr ? without_tokens(one_line(error)) : "out of memory";
  }
  PQconninfoFree(options);
  if (error != nullptr) PQfreemem(error);
  return why;
}

// A URI whose user-info (to the last '@') holds a raw '@' or '/': libpq would end it at the
// first, and read the password's rest as the host or the database (then quote it).
bool ambiguous_userinfo(std::string_view target) {
  if (!target.starts_with("postgresql://") && !target.starts_with("postgres://")) return false;
  const std::size_t authority = target.find("://") + 3;
  const std::size_t at = target.rfind('@');
  if (at == std::string_view::npos || at < authority) return false;
  return target.substr(authority, at - authority).find_first_of("@/") != std::string_view::npos;
}

}  // namespace

std::string check_target(const std::string& target) {
  if (ambiguous_userinfo(target)) {
    return "the user name or password holds a raw '@' or '/' (write them %40 and %2F; an '@' "
           "in the database name or a parameter, %40)";
  }
  return parse_error(target);
}

bool accepts(std::string_view target) noexcept {
  return target.starts_with("postgresql://") || target.starts_with("postgres://") ||
         target.find('=') != std::string_view::npos;
}

shoal::task<open_result> open(database_options options) {
  std::string shown = redact(options.target);
  if (std::string why = check_target(options.target); !why.empty()) {
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
