// SPDX-License-Identifier: Apache-2.0
// tests/app/compare/compare_binary_test.cpp: `shoal-tpcc compare` as users run it: two
// simulated runs of the same binary and seed show no difference beyond noise in any row; a run
// whose New-Orders the simulated database answers 200 ms later is named slower, and
// --fail-if-slower 5 exits 4; bad input exits 2 naming the file or the value.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <future>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "binary.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using tpcc::testing::binary_result;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::run_binary;

tpcc::testing::temp_dir* scratch = nullptr;  // the suite's three results live here

// A short simulated run of 2 warehouses and seed 7 on `target`, its result in `json_file`.
binary_result simulated_run(const std::string& target, const std::string& json_file) {
  return run_binary({"run", "--db", target, "--warehouses", "2", "--warmup", "0s", "--duration",
                     "2s", "--drain", "5s", "--wait-scale", "0.01", "--seed", "7", "--no-tui",
                     "--no-progress", "--json", json_file},
                    120s);
}

class compare_binary : public ::testing::Test {
 protected:
  // The three runs at once (each mostly waits on its simulated latency).
  static void SetUpTestSuite() {
    scratch = new tpcc::testing::temp_dir("shoal-compare");
    auto a = std::async(std::launch::async, simulated_run, "sim:latency=1ms", file("a.json"));
    auto b = std::async(std::launch::async, simulated_run, "sim:latency=1ms", file("b.json"));
    auto slow = std::async(std::launch::async, simulated_run,
                           "sim:latency=1ms,slow=new_order:200ms", file("slow.json"));
    for (auto* run : {&a, &b, &slow}) {
      const binary_result r = run->get();
      ASSERT_EQ(r.exit_code, 0) << describe(r);
    }
  }
  static void TearDownTestSuite() { delete scratch; }
  static std::string file(const std::string& name) { return scratch->file(name); }
  static json read(const std::string& name) {
    std::ifstream in(file(name));
    return json::parse(in);
  }
};

TEST_F(compare_binary, TwoRunsOfTheSameBinaryAndSeedShowNoDifferenceBeyondNoise) {
  const binary_result r = run_binary({"compare", file("a.json"), file("b.json"), "--json",
                                      file("same.json"), "--fail-if-slower", "5"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "configuration: the same in every setting compared")) << r.out;
  EXPECT_TRUE(contains(r.out, "result: no difference beyond noise in any figure")) << r.out;
  EXPECT_TRUE(contains(r.out, "gate: passed")) << r.out;
  const json doc = read("same.json");
  ASSERT_EQ(doc["comparisons"].size(), 1U);
  for (const json& row : doc["comparisons"][0]["rows"]) {
    EXPECT_EQ(row["judgement"], "no difference beyond noise") << row.dump();
  }
}

TEST_F(compare_binary, ASlowedNewOrderIsNamedAndFailsTheGate) {
  const binary_result r = run_binary({"compare", file("a.json"), file("b.json"), file("slow.json"),
                                      "--html", file("diff.html"), "--fail-if-slower", "5"});
  ASSERT_EQ(r.exit_code, 4) << describe(r);
  // Each later file against the first: b first (nothing), then the slowed run.
  const auto second = r.out.find("B = " + file("slow.json"));
  ASSERT_NE(second, std::string::npos) << r.out;
  EXPECT_TRUE(contains(r.out.substr(second), "slow=new_order:200ms")) << "the target differs";
  EXPECT_TRUE(contains(r.out.substr(second),
                       "gate: FAILED: " + file("slow.json") + " is slower than " + file("a.json")))
      << r.out;
  EXPECT_TRUE(contains(r.out.substr(second), "New-Order p90 slower")) << r.out;
  std::ifstream html(file("diff.html"));
  const std::string page((std::istreambuf_iterator<char>(html)), {});
  EXPECT_TRUE(contains(page, "Gate FAILED")) << page.substr(0, 400);
  // Without the gate: the same report, exit 0.
  EXPECT_EQ(run_binary({"compare", file("a.json"), file("slow.json")}).exit_code, 0);
}

TEST_F(compare_binary, BadInputExitsTwoNamingTheFileOrTheValue) {
  binary_result r = run_binary({"compare", file("a.json")});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "compare needs at least two result files")) << r.err;
  r = run_binary({"compare", file("a.json"), file("missing.json")});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, file("missing.json"))) << r.err;
  std::ofstream(file("other.json")) << R"({"format": "something else"})";
  r = run_binary({"compare", file("a.json"), file("other.json")});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, file("other.json"))) << r.err;
  EXPECT_EQ(r.out, "") << "nothing compared before every file is read";
  for (const char* pct : {"fast", "-1", "1001", "nan"}) {
    r = run_binary({"compare", file("a.json"), file("b.json"), "--fail-if-slower", pct});
    EXPECT_EQ(r.exit_code, 2) << pct << "\n" << describe(r);
    EXPECT_TRUE(contains(r.err, "--fail-if-slower expects a percentage")) << r.err;
  }
  r = run_binary({"run", "--fail-if-slower", "5"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "--fail-if-slower does not apply to `shoal-tpcc run`")) << r.err;
}

TEST_F(compare_binary, HelpDescribesTheCommandAndItsGate) {
  const binary_result r = run_binary({"help", "compare"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "Usage: shoal-tpcc compare [OPTIONS] A.json B.json")) << r.out;
  EXPECT_TRUE(contains(r.out, "--fail-if-slower PCT")) << r.out;
  EXPECT_TRUE(contains(r.out, "  4    compare --fail-if-slower")) << r.out;
  EXPECT_EQ(run_binary({"compare", "--help"}).out, r.out);
}

}  // namespace
