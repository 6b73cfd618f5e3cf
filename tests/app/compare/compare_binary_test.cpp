// SPDX-License-Identifier: Apache-2.0
// tests/app/compare/compare_binary_test.cpp: `shoal-tpcc compare` as users run it: two
// simulated runs of the same binary and seed show no difference beyond noise in any row; a run
// whose New-Orders the simulated database answers 200 ms later is named slower, and
// --fail-if-slower 5 exits 4; two runs of one schedule, one on a simulated database too slow
// for its second step, name that step as kept up by one run only; bad input exits 2 naming the
// file or the value.
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

// One warehouse's 10 terminals paced by a schedule of 300 tpm for 1 s, then 3,000 tpm for 3 s
// (250 ms intervals: windows of 0.75 and 2.5 s), seed 7, on `target`. On sim:latency=1ms both
// steps keep up (50 a second for terminals that each take hundreds: light enough for a loaded
// machine under ASan, with four other runs beside). With capacity=10 (600 tpm) the first keeps
// up and the second cannot: its oldest intended start falls behind by 0.8 s a second, 2 s over
// the window, past grew()'s 1 s.
binary_result scheduled_run(const std::string& target, const std::string& json_file) {
  return run_binary({"run", "--db", target, "--warehouses", "1", "--warmup", "0s", "--schedule",
                     "rate=300:1s,rate=3000:3s", "--interval", "250ms", "--drain", "5s", "--seed",
                     "7", "--no-tui", "--no-progress", "--json", json_file},
                    120s);
}

class compare_binary : public ::testing::Test {
 protected:
  // The five runs at once (each mostly waits on its simulated latency or its pacing).
  static void SetUpTestSuite() {
    scratch = new tpcc::testing::temp_dir("shoal-compare");
    auto a = std::async(std::launch::async, simulated_run, "sim:latency=1ms", file("a.json"));
    auto b = std::async(std::launch::async, simulated_run, "sim:latency=1ms", file("b.json"));
    auto slow = std::async(std::launch::async, simulated_run,
                           "sim:latency=1ms,slow=new_order:200ms", file("slow.json"));
    auto steady =
        std::async(std::launch::async, scheduled_run, "sim:latency=1ms", file("steady.json"));
    auto choked = std::async(std::launch::async, scheduled_run, "sim:latency=1ms,capacity=10",
                             file("choked.json"));
    for (auto* run : {&a, &b, &slow, &steady, &choked}) {
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

TEST_F(compare_binary, AStepOnlyOneRunKeptUpWithIsNamedWithBothBacklogs) {
  const binary_result r = run_binary({"compare", file("steady.json"), file("choked.json"), "--json",
                                      file("steps.json"), "--html", file("steps.html")});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "A backlog")) << r.out;
  EXPECT_TRUE(contains(r.out,
                       "kept up in one run only: step 2 (3000 tpm offered): A kept up "
                       "(kept up, "))
      << r.out;
  EXPECT_TRUE(contains(r.out, "B did not (GREW: ")) << r.out;
  EXPECT_FALSE(contains(r.out, "only: step 1")) << "both kept up with the first step: " << r.out;
  const json steps = read("steps.json")["comparisons"][0]["steps"];
  ASSERT_EQ(steps["lines"].size(), 2U) << steps.dump(1);
  EXPECT_TRUE(steps["lines"][0]["kept_up_alone"].is_null()) << steps.dump(1);
  EXPECT_EQ(steps["lines"][1]["kept_up_alone"], "A") << steps.dump(1);
  const json& choked = steps["lines"][1]["b"]["pacing"];
  EXPECT_GT(choked["backlog_at_end"]["oldest_seconds"].get<double>() -
                choked["backlog_at_start"]["oldest_seconds"].get<double>(),
            1.0)
      << choked.dump();
  EXPECT_LT(steps["lines"][1]["b"]["tpm_total"].get<double>(), 3000 * 0.5) << steps.dump(1);
  std::ifstream html(file("steps.html"));
  const std::string page((std::istreambuf_iterator<char>(html)), {});
  EXPECT_TRUE(contains(page, "Kept up in one run only")) << page.substr(0, 400);
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
