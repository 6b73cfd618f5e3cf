// SPDX-License-Identifier: Apache-2.0
// The consistency conditions on a throwaway PostgreSQL (app/tpcc/testing/postgres_server.hpp): the
// same statements as on SQLite, so the consistent dataset passes every condition and each
// corruption of dataset.hpp fails exactly its condition with the same offenders, described the
// same way (NUMERIC sums are exact here, doubles on SQLite).
#include <gtest/gtest.h>

#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "check/check.hpp"
#include "check/print.hpp"
#include "dataset.hpp"
#include "driver/open.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "support/running_pool.hpp"
#include "testing/postgres_server.hpp"

namespace {

using shoal::task;
using tpcc::check::check_options;
using tpcc::check::condition_result;
using tpcc::driver::call;
using tpcc::driver::database;
using tpcc::testing::postgres_server;
namespace data = tpcc::check::testing;
using data::failing;
using data::opened;
using data::whole_dataset;

using outcomes = std::vector<std::vector<condition_result>>;

// Built in a plain function: g++ 12 mishandles aggregate initialisers inside coroutines.
tpcc::driver::database_options postgres_target(std::string conninfo) {
  return {.target = std::move(conninfo), .connections = 2};
}

// Clause 0: the consistent dataset; 1..12: that clause's corruption in district (1, 3).
task<std::vector<condition_result>> check_one(database& db, int clause, check_options options) {
  std::vector<call> corrupt;
  if (clause > 0) corrupt = data::corruption(clause, 1, 3);
  co_await data::build(db, std::move(corrupt));
  co_return co_await tpcc::check::check_consistency(db, options);
}

task<outcomes> check_all(shoal::thread_pool& pool, std::string conninfo) {
  co_await pool.schedule();
  std::unique_ptr<database> db = co_await opened(postgres_target(std::move(conninfo)));
  const check_options options = whole_dataset(1);
  outcomes out;
  std::exception_ptr failure;  // the database is closed before any failure is rethrown
  try {
    for (int clause = 0; clause <= 12; ++clause)
      out.push_back(co_await check_one(*db, clause, options));
  } catch (...) {
    failure = std::current_exception();
  }
  co_await db->close();
  if (failure) std::rethrow_exception(failure);
  co_return out;
}

TEST(tpcc_check_postgres, ConsistentDatasetPassesAndEachCorruptionFailsOnlyItsCondition) {
  if (!postgres_server::available()) {
    GTEST_SKIP() << "PostgreSQL server binaries not found (set SHOAL_PG_BIN or install the "
                    "postgresql package): skipping the PostgreSQL consistency-check test";
  }
  const postgres_server server;
  shoal::testing::running_pool workers{2};
  const outcomes all = shoal::sync_wait(check_all(workers.pool, server.conninfo()));
  ASSERT_EQ(all.size(), 13u);
  EXPECT_TRUE(tpcc::check::all_passed(all[0])) << format_results(all[0]);
  EXPECT_EQ(all[0][9].checked, data::warehouses * data::districts * data::customers_per_district);
  for (int clause = 1; clause <= 12; ++clause) {
    const std::vector<condition_result>& run = all[static_cast<std::size_t>(clause)];
    const condition_result& broken = run[static_cast<std::size_t>(clause - 1)];
    EXPECT_EQ(failing(run), std::string(broken.clause) + " ") << format_results(run);
    EXPECT_EQ(broken.offenders, data::expected_offenders(clause)) << format_results(run);
  }
}

}  // namespace
