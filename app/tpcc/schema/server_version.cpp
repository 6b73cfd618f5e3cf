// SPDX-License-Identifier: Apache-2.0
// app/tpcc/schema/server_version.cpp: asking the server its version (see server_version.hpp).
#include "schema/server_version.hpp"

#include <array>
#include <vector>

namespace tpcc::schema {
namespace {

using driver::statement;

constexpr std::array<statement, 2> questions{{
    {"tpcc_server_version", "SELECT version()"},                      // PostgreSQL, Citus
    {"tpcc_sqlite_version", "SELECT 'SQLite ' || sqlite_version()"},  // SQLite
}};

}  // namespace

shoal::task<std::string> server_version(driver::database& db) {
  if (db.simulated()) co_return "simulated (no database server)";
  driver::lease l = co_await db.acquire();
  if (!l) co_return "unknown (" + l.status().message + ")";
  std::string why;
  for (const statement& q : questions) {
    if (const driver::outcome began = co_await l->begin(); !began.ok()) {
      co_return "unknown (" + began.message + ")";
    }
    const driver::statement_result r = co_await l->execute(q, std::vector<driver::value>());
    if (r.ok() && r.rows.size() == 1 && !r.rows[0].null_at(0)) {
      std::string answer = r.rows[0].text_at(0);
      co_await l->commit();
      co_return answer;
    }
    why = r.status.message;
    co_await l->rollback();
  }
  co_return "unknown (" + why + ")";
}

}  // namespace tpcc::schema
