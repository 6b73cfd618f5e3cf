// SPDX-License-Identifier: Apache-2.0
// tests/app/procedures/procedures_mysql_test.cpp: --procedures on a throwaway MariaDB.
//
// One server for the program; warehouse 1 loaded once (seed 5) into `tpcc` by the binary, what
// the sequence needs of it copied into `client` with a copy of its rows as warehouse 2 (remote
// lines and Payments), and `client` into `procs`. The same keyed sequence runs client-side on
// `client` and as procedure calls on `procs` (the text protocol): the transactions' answers and
// every table must come out equal; a client-side Delivery on `client` is then 5 statements by
// the server's count (txn/delivery_locked.hpp). Then the binary on `tpcc`: run --procedures
// refused (exit 2) until init --procedures, a short run with protocol=prepared (a CALL's rows and
// status read as one step), check passing, clean dropping the procedures.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../run/binary.hpp"
#include "equivalence.hpp"
#include "round.hpp"
#include "testing/mariadb_server.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::testing::binary_result;
using tpcc::testing::describe;
using tpcc::testing::mariadb_server;
using tpcc::testing::run_binary;

// Database `from` copied into a new database `to`, as much as the keyed sequence needs and no
// more (INSERT ... SELECT is the slow part of this program): ITEM a view of `from`'s (read only);
// ORDERS and ORDER-LINE from O_ID 2001 on (every undelivered order, the last 20 of each district
// for Stock-Level, and some delivered ones for Order-Status; a customer whose latest order is
// older shows none, the same on both copies); HISTORY empty (only written to); the rest whole.
std::string copy_database(const std::string& from, const std::string& to) {
  std::string sql = "CREATE DATABASE " + to + ";\n";
  sql += "CREATE VIEW " + to + ".item AS SELECT * FROM " + from + ".item;\n";
  const std::vector<std::pair<std::string, std::string>> tables{
      {"tpcc_meta", ""},   {"tpcc_loaded", ""},       {"warehouse", ""},
      {"district", ""},    {"customer", ""},          {"stock", ""},
      {"new_order", ""},   {"orders", "o_id > 2000"}, {"order_line", "ol_o_id > 2000"},
      {"history", "FALSE"}};
  for (const auto& [name, rows] : tables) {
    sql += "CREATE TABLE " + to + "." + name + " LIKE " + from + "." + name + ";\n";
    sql += "INSERT INTO " + to + "." + name + " SELECT * FROM " + from + "." + name +
           (rows.empty() ? "" : " WHERE " + rows) + ";\n";
  }
  return sql;
}

class procedures_mysql : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!mariadb_server::available()) return;
    try {
      server = mariadb_server::start_one();
      binary_result r = run_binary({"init", "--db", target("tpcc")});
      if (r.exit_code != 0) throw std::runtime_error("init: " + describe(r));
      r = run_binary(
          {"load", "--db", target("tpcc"), "--warehouses", "1", "--seed", "5", "--no-progress"},
          300s);
      if (r.exit_code != 0) throw std::runtime_error("load: " + describe(r));
      server->sql(copy_database("tpcc", "client") + "USE client;\n" +
                  procedures_test::second_warehouse_sql() + copy_database("client", "procs"));
    } catch (const std::exception& e) {
      setup_failure = e.what();
    }
  }
  static void TearDownTestSuite() { server.reset(); }

  void SetUp() override {
    if (!setup_failure.empty()) FAIL() << setup_failure;
    if (!server) GTEST_SKIP() << "MariaDB server binaries not found (install mariadb-server)";
  }

  // The server's URI with `database` in place of tpcc.
  static std::string target(const std::string& database) {
    std::string uri = server->uri();
    const std::size_t at = uri.find("/tpcc?");
    return uri.replace(at + 1, 4, database);
  }

  static std::unique_ptr<mariadb_server> server;
  static std::string setup_failure;
};

std::unique_ptr<mariadb_server> procedures_mysql::server;
std::string procedures_mysql::setup_failure;

TEST_F(procedures_mysql, ProceduresAnswerAndWriteAsTheClientSideStatementsDo) {
  procedures_test::expect_same_answers(target("client"), target("procs"),
                                       tpcc::driver::engine::mysql);
}

// Where statements cannot return the rows they change, a client-side Delivery is 5 statements
// (txn/delivery_locked.hpp): one locking read of the ten oldest NEW-ORDER rows, one DELETE, one
// UPDATE of ORDERS and CUSTOMER, one of ORDER-LINE, the COMMIT; it was 51 (five per district).
// On `client`, after the sequence above was compared: every district still has undelivered
// orders, so all ten are delivered.
TEST_F(procedures_mysql, AClientSideDeliveryIsFiveStatements) {
  tpcc::txn::delivery_output out;
  EXPECT_EQ(procedures_test::delivery_statements(target("client") + "&protocol=text", out), 5);
  EXPECT_EQ(out.skipped, 0);
  for (const std::int64_t o_id : out.delivered_o_id) EXPECT_GT(o_id, 2100);
}

// A deadlock reported inside the procedure (here by a trigger on WAREHOUSE raising error 1213)
// is retryable: the Payment is retried and counted as the client-side one is.
TEST_F(procedures_mysql, ADeadlockInsideAProcedureIsRetried) {
  server->sql(
      "USE procs; CREATE TRIGGER refuse_payment BEFORE UPDATE ON warehouse FOR EACH ROW "
      "SIGNAL SQLSTATE '40001' SET MYSQL_ERRNO = 1213, MESSAGE_TEXT = 'refused by a test "
      "trigger'");
  const procedures_test::retried_payments paid =
      procedures_test::pay_with_retries(target("procs"), tpcc::driver::engine::mysql);
  server->sql("USE procs; DROP TRIGGER refuse_payment");
  procedures_test::expect_retried(paid, "40001");
}

TEST_F(procedures_mysql, RunWithProceduresNeedsInitThenRunsAndChecks) {
  procedures_test::expect_binary_round(target("tpcc"), target("tpcc") + "&protocol=prepared");
  const std::string left =
      server->sql("SELECT count(*) FROM information_schema.routines WHERE routine_schema = 'tpcc'");
  EXPECT_EQ(left, "0\n") << "clean leaves no procedure behind";
}

}  // namespace
