// SPDX-License-Identifier: Apache-2.0
// Running the schema's statements (statements.hpp).
#include "schema/statements.hpp"

#include <utility>

namespace tpcc::schema {

using driver::call;
using driver::outcome;
using driver::statement;
using driver::statement_result;

std::vector<call> calls_of(std::span<const statement> statements) {
  std::vector<call> calls;
  calls.reserve(statements.size());
  for (const statement& s : statements) calls.push_back({&s, {}});
  return calls;
}

shoal::task<outcome> run_transaction(driver::session& s, std::vector<call> calls) {
  const outcome began = co_await s.begin();
  if (!began.ok()) co_return began;
  const std::vector<statement_result> results =
      co_await s.execute_batch(calls, driver::then::commit);
  outcome failure = first_failure(results);
  if (!failure.ok()) co_await s.rollback();
  co_return failure;
}

shoal::task<outcome> run_on_lease(driver::database& db, std::vector<call> calls) {
  driver::lease l = co_await db.acquire();
  if (!l) co_return l.status();
  co_return co_await run_transaction(*l, std::move(calls));
}

namespace {

counted count_of(outcome status, std::int64_t count) {
  counted c;
  c.status = std::move(status);
  c.count = count;
  return c;
}

}  // namespace

shoal::task<counted> count_query(driver::session& s, const statement& q,
                                 std::vector<driver::value> params) {
  const outcome began = co_await s.begin();
  if (!began.ok()) co_return count_of(began, 0);
  const statement_result r = co_await s.execute(q, std::move(params));
  if (!r.ok() || r.rows.size() != 1) {
    co_await s.rollback();
    co_return count_of(r.status, 0);
  }
  const outcome committed = co_await s.commit();
  co_return count_of(committed, r.rows[0].int_at(0));
}

}  // namespace tpcc::schema
