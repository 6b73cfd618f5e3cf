// SPDX-License-Identifier: Apache-2.0
// tests/app/run/merge_input_binary_test.cpp: `shoal-tpcc merge` on hostile result files, as
// users meet them (issue 35): a real run's result with each of its scalars given another type,
// huge durations, truncated text, garbage, deep nesting. Each ends with exit 2 and a one-line
// message naming the file and the field; never a signal, never 0.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "../report/json_variants.hpp"
#include "binary.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using tpcc::testing::binary_result;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::run_binary;

class merge_input : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    scratch = new tpcc::testing::temp_dir("shoal-tpcc-merge-input");
    const binary_result r =
        run_binary({"run", "--db", "sim:latency=1ms", "--warehouses", "1", "--warmup", "1s",
                    "--duration", "2s", "--drain", "2s", "--wait-scale", "0.005", "--seed", "3",
                    "--no-progress", "--no-tui", "--json", scratch->file("real.json")},
                   120s);
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    std::ifstream in(scratch->file("real.json"));
    real = new json(json::parse(in));
  }
  static void TearDownTestSuite() {
    delete real;
    delete scratch;
  }

  // Merges `doc` written to a file; expects exit 2 and the file named on one line.
  static binary_result refused(const json& doc, const std::string& name) {
    const std::string file = scratch->file(name);
    std::ofstream(file) << doc.dump();
    return refused_text(file);
  }
  static binary_result refused_text(const std::string& file) {
    const binary_result r = run_binary({"merge", file});
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_TRUE(contains(r.err, "merge: " + file + ": ")) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;  // one line
    return r;
  }

  static tpcc::testing::temp_dir* scratch;
  static json* real;
};

tpcc::testing::temp_dir* merge_input::scratch = nullptr;
json* merge_input::real = nullptr;

TEST_F(merge_input, TheRealResultMerges) {
  const binary_result r = run_binary({"merge", scratch->file("real.json")});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
}

// Every scalar outside the histograms' buckets, the series and the transaction types after
// the first (read as it is; the in-process test, report/json_hostile_test.cpp, covers them
// all): one binary run each.
TEST_F(merge_input, EachScalarOfAnotherTypeExitsTwoNamingTheField) {
  int tried = 0;
  for (const auto& s : tpcc::testing::scalars(*real)) {
    const bool same_reader_as_first =
        s.path.starts_with("transactions[") && !s.path.starts_with("transactions[0]");
    if (contains(s.path, "buckets") || s.path.starts_with("series[") || same_reader_as_first ||
        tpcc::testing::derived(s.path))
      continue;
    json bad = *real;
    bad[s.pointer] = tpcc::testing::wrong_type((*real)[s.pointer]);
    const binary_result r = refused(bad, "typed.json");
    EXPECT_TRUE(contains(r.err, "field " + s.path)) << s.path << ": " << r.err;
    ++tried;
  }
  EXPECT_GT(tried, 60);
}

TEST_F(merge_input, TheFieldsThatDumpedCoreExitTwo) {
  for (const char* where : {"/config/terminals_per_warehouse", "/config/isolation",
                            "/series/0/client/deliveries_queued", "/config/warmup_seconds"}) {
    for (const json& v : {json("ten"), json(1e300), json(-3), json::array(), json(nullptr)}) {
      json bad = *real;
      bad[json::json_pointer(where)] = v;
      const binary_result r = refused(bad, "core.json");
      const std::string field = std::string(where).substr(std::string(where).rfind('/') + 1);
      EXPECT_TRUE(contains(r.err, field)) << where << " = " << v.dump() << ": " << r.err;
    }
  }
}

TEST_F(merge_input, TruncatedGarbageAndDeepFilesExitTwo) {
  const std::string text = real->dump();
  const std::string file = scratch->file("broken.json");
  for (const std::string& body :
       {text.substr(0, text.size() / 2), std::string("\x01\xff garbage"), std::string(),
        std::string(200'000, '[') + std::string(200'000, ']')}) {
    std::ofstream(file) << body;
    refused_text(file);
  }
}

}  // namespace
