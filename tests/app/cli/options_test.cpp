// tests/app/cli/options_test.cpp: the options table: parsing, errors naming the input, usage.
#include "cli/options.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "cli/values.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::cli::command;
using tpcc::cli::config;

tpcc::cli::parse_result parse(std::vector<std::string_view> args) { return tpcc::cli::parse(args); }

std::string error_of(std::vector<std::string_view> args) {
  auto r = parse(std::move(args));
  return std::holds_alternative<std::string>(r) ? std::get<std::string>(r) : "";
}

TEST(cli_options, CommandAndOptionsInBothSpellings) {
  auto r = parse({"run", "--db", "sqlite:/tmp/x.db", "--warehouses=12", "--duration", "90s",
                  "--warmup=2m", "--no-wait", "--isolation", "serializable"});
  ASSERT_TRUE(std::holds_alternative<config>(r)) << std::get<std::string>(r);
  const config& c = std::get<config>(r);
  EXPECT_EQ(c.cmd, command::run);
  EXPECT_EQ(c.db.text, "sqlite:/tmp/x.db");
  EXPECT_EQ(c.warehouses, 12);
  EXPECT_EQ(c.duration, 90s);
  EXPECT_EQ(c.warmup, 2min);
  EXPECT_EQ(c.wait_scale, 0.0);
  EXPECT_EQ(c.isolation, tpcc::driver::isolation::serializable);
}

TEST(cli_options, NoCommandIsTheDefaultJob) {
  auto r = parse({});
  ASSERT_TRUE(std::holds_alternative<config>(r));
  EXPECT_EQ(std::get<config>(r).cmd, command::all);
  EXPECT_TRUE(std::get<config>(r).is_sqlite());
}

TEST(cli_options, ErrorsNameTheInputAndWhatWasExpected) {
  EXPECT_EQ(error_of({"--bogus"}), "unknown option --bogus");
  EXPECT_EQ(error_of({"frobnicate"}), "unknown command 'frobnicate'");
  EXPECT_NE(error_of({"--warehouses", "abc"}).find("--warehouses expects an integer"),
            std::string::npos);
  EXPECT_NE(error_of({"--warehouses", "0"}).find("got '0'"), std::string::npos);
  EXPECT_EQ(error_of({"--duration"}), "option --duration needs a value");
  EXPECT_NE(error_of({"--duration", "soon"}).find("a duration"), std::string::npos);
  EXPECT_EQ(error_of({"--no-wait=1"}), "option --no-wait takes no value");
  EXPECT_EQ(error_of({"run", "extra"}), "unexpected argument 'extra'");
  EXPECT_NE(error_of({"--isolation", "snapshot"}).find("serializable"), std::string::npos);
}

TEST(cli_options, HelpWinsWhereverItAppears) {
  auto r = parse({"load", "--help"});
  ASSERT_TRUE(std::holds_alternative<config>(r));
  EXPECT_EQ(std::get<config>(r).cmd, command::help);
}

TEST(cli_options, UsageListsEveryCommandAndOption) {
  const std::string u = tpcc::cli::usage();
  for (const char* word : {"init", "load", "run", "check", "clean", "--db", "--warehouses",
                           "--connections", "--warmup", "--duration", "--no-wait", "--seed"}) {
    EXPECT_NE(u.find(word), std::string::npos) << word;
  }
}

TEST(cli_values, DurationsTakeUnits) {
  EXPECT_EQ(tpcc::cli::read_duration("250ms"), 250ms);
  EXPECT_EQ(tpcc::cli::read_duration("90s"), 90s);
  EXPECT_EQ(tpcc::cli::read_duration("2m"), 2min);
  EXPECT_EQ(tpcc::cli::read_duration("1.5h"), 90min);
  EXPECT_EQ(tpcc::cli::read_duration("7"), 7s);
  EXPECT_FALSE(tpcc::cli::read_duration("-1s"));
  EXPECT_FALSE(tpcc::cli::read_duration("s"));
  EXPECT_FALSE(tpcc::cli::read_duration("5x"));
  EXPECT_FALSE(tpcc::cli::read_duration("1e12"));  // would overflow nanoseconds
}

}  // namespace
