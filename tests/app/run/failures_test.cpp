// tests/app/run/failures_test.cpp: a database that refuses every stock update, as a user would
// meet it (a trigger, a permission, a broken constraint): the run must show the error once
// with its SQLSTATE, count the failures in every output, show no New-Order percentile, fail
// the verdict and exit 3; with --tolerate-errors the same report and exit 0.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "binary.hpp"
#include "postgres_server.hpp"
#include "temp_dir.hpp"

namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using tpcc::testing::binary_result;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::run_binary;

constexpr const char* frozen_stock = R"sql(
CREATE FUNCTION refuse_stock() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'stock is frozen for the test' USING ERRCODE = 'SF001';
END $$ LANGUAGE plpgsql;
CREATE TRIGGER frozen BEFORE UPDATE ON stock FOR EACH ROW EXECUTE FUNCTION refuse_stock();
)sql";

json read(const std::string& file) {
  std::ifstream in(file);
  return json::parse(in);
}

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

std::vector<std::string> short_run(const std::string& db, const tpcc::testing::temp_dir& dir) {
  return {"run",
          "--db",
          db,
          "--warmup",
          "1s",
          "--duration",
          "6s",
          "--drain",
          "10s",
          "--wait-scale",
          "0.01",
          "--seed",
          "7",
          "--json",
          dir.file("r.json"),
          "--html",
          dir.file("r.html"),
          "--no-tui"};
}

// What both runs must show, whatever their exit status.
void expect_the_failures_shown(const binary_result& r, const tpcc::testing::temp_dir& dir) {
  // The error, once, with its SQLSTATE, the statement and the message.
  EXPECT_EQ(occurrences(r.err, "error (first of its kind): New-Order: failed, SQLSTATE SF001"), 1U)
      << r.err;
  EXPECT_TRUE(contains(r.err, "stock is frozen for the test")) << r.err;
  // The summary: failures counted by class, no New-Order percentile, the verdict failed.
  EXPECT_TRUE(contains(r.out, "FAILURES    New-Order")) << r.out;
  EXPECT_TRUE(contains(r.out, "SQLSTATE class SF x ")) << r.out;
  EXPECT_TRUE(contains(r.out, "verdict     FAIL")) << r.out;
  EXPECT_TRUE(contains(r.out, "every transaction type completed")) << r.out;
  EXPECT_TRUE(contains(r.out, "tpmC        0.00")) << r.out;
  // The JSON: counted, by class, no completed New-Order, no response sample.
  const json doc = read(dir.file("r.json"));
  const json& no = doc["transactions"][0];
  EXPECT_EQ(no["type"], "New-Order");
  EXPECT_EQ(no["completed"], 0U) << no.dump();
  EXPECT_GT(no["failed"].get<std::uint64_t>(), 0U) << no.dump();
  EXPECT_EQ(no["errors_by_sqlstate_class"]["SF"], no["failures"]) << no.dump();
  EXPECT_EQ(no["histograms"]["response"]["count"], 0U);
  EXPECT_GT(no["histograms"]["failed"]["count"].get<std::uint64_t>(), 0U);
  EXPECT_EQ(doc["verdict"]["result"], "FAIL");
  // The HTML: the failures section.
  std::ifstream html_file(dir.file("r.html"));
  const std::string html((std::istreambuf_iterator<char>(html_file)),
                         std::istreambuf_iterator<char>());
  EXPECT_TRUE(contains(html, "Failures (measurement interval)"));
  EXPECT_TRUE(contains(html, "<td>SF</td>"));
}

TEST(failures, EveryStockUpdateRefusedIsShownCountedAndFailsTheRun) {
  if (!tpcc::testing::postgres_server::available()) GTEST_SKIP() << "no PostgreSQL binaries";
  const tpcc::testing::postgres_server server;
  const std::string db = server.conninfo();
  binary_result r = run_binary({"init", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  r = run_binary({"load", "--db", db, "--warehouses", "1", "--no-progress"}, 300s);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  server.sql(frozen_stock);

  const tpcc::testing::temp_dir dir("shoal-tpcc-failures");
  r = run_binary(short_run(db, dir), 120s);
  EXPECT_EQ(r.exit_code, 3) << describe(r);
  EXPECT_TRUE(contains(r.err, "exit status 3 (--tolerate-errors to exit 0)")) << r.err;
  expect_the_failures_shown(r, dir);

  std::vector<std::string> tolerant = short_run(db, dir);
  tolerant.emplace_back("--tolerate-errors");
  r = run_binary(tolerant, 120s);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.err, "exit status 0 (--tolerate-errors)")) << r.err;
  expect_the_failures_shown(r, dir);
}

}  // namespace
