// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/mysql/uri.hpp: a MySQL or MariaDB --db target, read.
//
// What: `mysql://[user[:password]@][host][:port][/database][?key=value&...]`, `mariadb://` the
// same. User, password and database may be percent-encoded (%40 for '@'). The user-info ends at
// the LAST '@' of the target, so a password may hold a raw '/', '?', '#' or '@' (generated
// passwords do); an '@' in the database name or a query value is then written %40. The host
// defaults to localhost, the port to 3306, the user to "root", the database to "tpcc". Query keys:
//   socket=/path       connect over this Unix socket (host and port are then ignored);
//   ssl=true           require TLS (the server's certificate is not verified);
//   ssl=verify         require TLS and verify the server's certificate and host name;
//   ssl-ca=/path       the CA file to verify with (implies ssl=verify);
//   password=...       the password, as in the user-info part;
//   protocol=text      (the default) every batch of statements one multi-statement text query
//                      (values escaped into the SQL): one round trip per batch, as on
//                      PostgreSQL (docs/tpcc/design/mysql-driver.md: fewer round trips, less client
//                      and server CPU than prepared statements, measured);
//   protocol=prepared  every statement a server-side prepared statement, one round trip per
//                      statement.
// Anything else is refused with a message naming it, so a typo is not silently ignored.
// Messages never quote the password: the caller redacts the target (driver/open.hpp).
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace tpcc::driver::mysql {

enum class tls : std::uint8_t { off, required, verified };
enum class protocol : std::uint8_t { prepared, text };

struct uri {
  std::string user = "root";
  std::string password;
  std::string host = "localhost";
  unsigned port = 3306;
  std::string database = "tpcc";
  std::string socket;  // a Unix socket path; empty for TCP
  tls mode = tls::off;
  std::string ssl_ca;
  protocol statements = protocol::text;
};

// True when `text` starts with mysql:// or mariadb://.
[[nodiscard]] bool is_mysql_uri(std::string_view text) noexcept;

// The target `text` names, or what is wrong with it (never quoting the password).
[[nodiscard]] std::variant<uri, std::string> parse_uri(std::string_view text);

}  // namespace tpcc::driver::mysql
