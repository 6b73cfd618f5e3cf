// SPDX-License-Identifier: Apache-2.0
// tests/app/procedures/procedures_postgres_test.cpp: --procedures on a throwaway PostgreSQL.
//
// One server for the program; warehouse 1 loaded once (seed 5) into `loaded` by the binary, then
// copied (CREATE DATABASE ... TEMPLATE) into `client` with a copy of its rows as warehouse 2
// (remote lines and Payments), and `client` into `procs`. The same keyed sequence runs
// client-side on `client` and as procedure calls on `procs`: the transactions' answers and every
// table must come out equal. Then the binary on `loaded`: run --procedures refused (exit 2)
// until init --procedures, a short run, check passing, clean dropping the functions.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../run/binary.hpp"
#include "equivalence.hpp"
#include "round.hpp"
#include "testing/postgres_server.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::testing::binary_result;
using tpcc::testing::describe;
using tpcc::testing::postgres_server;
using tpcc::testing::run_binary;

class procedures_postgres : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!postgres_server::available()) return;
    try {
      server = std::make_unique<postgres_server>();
      server->sql("CREATE DATABASE loaded");
      binary_result r = run_binary({"init", "--db", target("loaded")});
      if (r.exit_code != 0) throw std::runtime_error("init: " + describe(r));
      r = run_binary(
          {"load", "--db", target("loaded"), "--warehouses", "1", "--seed", "5", "--no-progress"},
          300s);
      if (r.exit_code != 0) throw std::runtime_error("load: " + describe(r));
      server->sql("CREATE DATABASE client TEMPLATE loaded");
      server->sql("\\c client\n" + procedures_test::second_warehouse_sql());
      server->sql("CREATE DATABASE procs TEMPLATE client");
    } catch (const std::exception& e) {
      setup_failure = e.what();
    }
  }
  static void TearDownTestSuite() { server.reset(); }

  void SetUp() override {
    if (!setup_failure.empty()) FAIL() << setup_failure;
    if (!server) GTEST_SKIP() << "PostgreSQL server binaries not found";
  }

  static std::string target(const std::string& database) {
    return server->conninfo() + " dbname=" + database;
  }

  static std::unique_ptr<postgres_server> server;
  static std::string setup_failure;
};

std::unique_ptr<postgres_server> procedures_postgres::server;
std::string procedures_postgres::setup_failure;

TEST_F(procedures_postgres, ProceduresAnswerAndWriteAsTheClientSideStatementsDo) {
  procedures_test::expect_same_answers(target("client"), target("procs"),
                                       tpcc::driver::engine::postgres);
}

// A serialization failure raised inside the function (here by a trigger on WAREHOUSE) keeps its
// SQLSTATE: the Payment is retried and counted as the client-side one is.
TEST_F(procedures_postgres, ASerializationFailureInsideAFunctionIsRetried) {
  server->sql(
      "\\c procs\n"
      "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION "
      "USING ERRCODE = '40001', MESSAGE = 'refused by a test trigger'; END $$;\n"
      "CREATE TRIGGER refuse_payment BEFORE UPDATE ON warehouse FOR EACH ROW "
      "EXECUTE FUNCTION refuse()");
  const procedures_test::retried_payments paid =
      procedures_test::pay_with_retries(target("procs"), tpcc::driver::engine::postgres);
  server->sql("\\c procs\nDROP TRIGGER refuse_payment ON warehouse");
  procedures_test::expect_retried(paid, "40001");
}

TEST_F(procedures_postgres, RunWithProceduresNeedsInitThenRunsAndChecks) {
  procedures_test::expect_binary_round(target("loaded"), target("loaded"));
  const std::string left =
      server->sql("\\c loaded\nSELECT count(*) FROM pg_proc WHERE proname LIKE 'tpcc\\_%'");
  EXPECT_EQ(left, "0\n") << "clean leaves no function behind";
}

}  // namespace
