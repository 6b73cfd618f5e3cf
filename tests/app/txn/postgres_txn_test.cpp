// New-Order and Payment against a throwaway PostgreSQL (tests/support/postgres_server.hpp) with
// the same dataset and checks as on SQLite: one SQL text runs on both engines.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <variant>

#include "dataset.hpp"
#include "driver/open.hpp"
#include "new_order_cases.hpp"
#include "payment_cases.hpp"
#include "shoal/sync_wait.hpp"
#include "support/postgres_server.hpp"

namespace txn_test {
namespace {

using tpcc::testing::postgres_server;

using case_fn = shoal::task<void> (*)(tpcc::driver::session&);

tpcc::driver::database_options pg_options(const std::string& conninfo) {
  return {.target = conninfo, .connections = 1};
}

// Opens the database, reloads the dataset, runs the case, closes.
shoal::task<void> run_case(shoal::thread_pool& pool, std::string conninfo, case_fn body) {
  co_await pool.schedule_on(0);
  tpcc::driver::open_result opened = co_await tpcc::driver::open_database(pg_options(conninfo));
  if (auto* failure = std::get_if<tpcc::driver::outcome>(&opened)) {
    throw std::runtime_error("open: " + failure->message);
  }
  auto db = std::move(std::get<std::unique_ptr<tpcc::driver::database>>(opened));
  {
    tpcc::driver::lease lease = co_await db->acquire();
    if (!lease) throw std::runtime_error("acquire: " + lease.status().message);
    co_await drop_tables(*lease);
    co_await load_dataset(*lease);
    co_await body(*lease);
  }
  co_await db->close();
}

// The suite's one server, started by the first test's suite set-up.
std::unique_ptr<postgres_server>& shared_server() {
  static std::unique_ptr<postgres_server> server;
  return server;
}

class postgres_txn : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (postgres_server::available()) shared_server() = std::make_unique<postgres_server>();
  }
  static void TearDownTestSuite() { shared_server().reset(); }
  void SetUp() override {
    if (!shared_server()) GTEST_SKIP() << "PostgreSQL server binaries not found";
  }
  void run(case_fn body) {
    shoal::sync_wait(run_case(workers_.pool, shared_server()->conninfo(), body));
  }

  shoal::testing::running_pool workers_{2};
};

TEST_F(postgres_txn, NewOrderCommitsWithItsEffects) { run(&expect_new_order_committed); }
TEST_F(postgres_txn, NewOrderWithUnusedItemRollsBack) { run(&expect_new_order_rolled_back); }
TEST_F(postgres_txn, PaymentByNumber) { run(&expect_payment_by_number); }
TEST_F(postgres_txn, PaymentByNameRemote) { run(&expect_payment_by_name_remote); }
TEST_F(postgres_txn, PaymentToMissingCustomerRollsBack) {
  run(&expect_payment_to_nobody_rolls_back);
}

}  // namespace
}  // namespace txn_test
