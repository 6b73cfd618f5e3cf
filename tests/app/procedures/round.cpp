// SPDX-License-Identifier: Apache-2.0
// The assertions both engines' --procedures tests share (round.hpp).
#include "round.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../run/binary.hpp"
#include "equivalence.hpp"
#include "temp_dir.hpp"

namespace procedures_test {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using tpcc::testing::binary_result;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::run_binary;

bool any_line(const std::vector<std::string>& lines, const std::string& part) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& l) { return contains(l, part); });
}

std::uint64_t total_of(const json& doc, const char* field) {
  std::uint64_t total = 0;
  for (const json& t : doc["transactions"]) total += t[field].get<std::uint64_t>();
  return total;
}

}  // namespace

void expect_same_answers(const std::string& client_db, const std::string& procedures_db,
                         tpcc::driver::engine kind) {
  const std::vector<keyed> inputs = draw_sequence(11, 200, 2);
  const both_runs r = run_both(client_db, procedures_db, kind, inputs);
  ASSERT_EQ(r.client.size(), inputs.size());
  ASSERT_EQ(r.procedures.size(), inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_EQ(r.client[i], r.procedures[i]) << "transaction " << i;
  }
  EXPECT_EQ(r.client_tables, r.procedure_tables);
  expect_every_path(r.client);
}

void expect_every_path(const std::vector<std::string>& lines) {
  for (const char* part : {"New-Order ok", "Payment ok", "Order-Status ok", "Delivery ok",
                           "Stock-Level ok", "item not valid", "Payment failed",
                           "Order-Status failed", "New-Order rolled back", "[2 "}) {
    EXPECT_TRUE(any_line(lines, part)) << "no transaction line contains '" << part << "'";
  }
}

void expect_retried(const retried_payments& paid, const std::string& sqlstate) {
  for (const tpcc::txn::attempt_report* r : {&paid.client, &paid.procedures}) {
    EXPECT_EQ(r->status.kind, tpcc::driver::outcome_kind::retryable) << r->status.message;
    EXPECT_EQ(r->status.sqlstate, sqlstate) << r->status.message;
    EXPECT_EQ(r->retries, 2);
    EXPECT_NE(r->status.message.find("refused by a test trigger"), std::string::npos)
        << r->status.message;
  }
}

void expect_binary_round(const std::string& db, const std::string& run_db) {
  const tpcc::testing::temp_dir dir;
  binary_result r = run_binary({"run", "--db", db, "--procedures", "--no-tui"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "has no stored procedure tpcc_new_order")) << describe(r);
  EXPECT_TRUE(contains(r.err, "`shoal-tpcc init --procedures`")) << describe(r);
  for (int i = 0; i < 2; ++i) {
    r = run_binary({"init", "--db", db, "--procedures"});
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_TRUE(contains(r.out, "5 stored procedures ready")) << describe(r);
  }
  const std::string file = dir.file("r.json");
  r = run_binary({"run", "--db", run_db, "--procedures", "--warmup", "1s", "--duration", "2s",
                  "--no-wait", "--no-tui", "--seed", "3", "--json", file},
                 120s);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "procedures  each transaction one stored-procedure call"));
  std::ifstream in(file);
  const json doc = json::parse(in);
  EXPECT_EQ(doc["config"]["mode"], "procedures");
  EXPECT_GT(total_of(doc, "committed"), 0U);
  EXPECT_EQ(total_of(doc, "failed"), 0U) << describe(r);
  r = run_binary({"check", "--db", db, "--no-progress"}, 120s);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  r = run_binary({"clean", "--db", db});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "every table and stored procedure dropped")) << describe(r);
}

}  // namespace procedures_test
