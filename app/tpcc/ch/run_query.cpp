// SPDX-License-Identifier: Apache-2.0
// One CH-benCHmark query in a transaction of its own (run_query.hpp).
#include "ch/run_query.hpp"

#include <stop_token>
#include <utility>

#include "ch/queries.hpp"
#include "shoal/stop.hpp"

namespace tpcc::ch {
namespace {

query_result failed_with(driver::outcome why) {
  query_result r;
  r.status = std::move(why);
  return r;
}

// SQLite: the query alone, a read transaction of its own (no BEGIN IMMEDIATE, no write lock).
shoal::task<query_result> autocommit_read(driver::session& s, const driver::statement& stmt) {
  driver::statement_result answer = co_await s.execute(stmt, {});
  if (!answer.ok()) co_return failed_with(std::move(answer.status));
  query_result r;
  r.status = std::move(answer.status);
  r.rows = std::move(answer.rows);
  co_return r;
}

}  // namespace

shoal::task<query_result> run_query(driver::session& s, driver::engine dialect, int number,
                                    const driver::statement* setup) {
  const driver::statement& stmt = statement_for(number, dialect);  // throws before any call
  co_return co_await run_statement(s, dialect, stmt, setup);
}

shoal::task<query_result> run_statement(driver::session& s, driver::engine dialect,
                                        const driver::statement& stmt,
                                        const driver::statement* setup) {
  if (dialect == driver::engine::sqlite) co_return co_await autocommit_read(s, stmt);
  const driver::outcome began = co_await s.begin();
  if (!began.ok()) co_return failed_with(began);
  if (setup != nullptr) {
    driver::statement_result set = co_await s.execute(*setup, {});
    if (!set.ok()) {
      co_await shoal::with_stop_token(std::stop_token(), s.rollback());
      co_return failed_with(std::move(set.status));
    }
  }
  driver::statement_result answer = co_await s.execute(stmt, {});
  if (!answer.ok()) {
    co_await shoal::with_stop_token(std::stop_token(), s.rollback());
    co_return failed_with(std::move(answer.status));
  }
  const driver::outcome committed = co_await s.commit();
  if (!committed.ok()) co_return failed_with(committed);
  query_result r;
  r.status = committed;
  r.rows = std::move(answer.rows);
  co_return r;
}

}  // namespace tpcc::ch
