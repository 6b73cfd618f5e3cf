// SPDX-License-Identifier: Apache-2.0
// tests/app/cli/endpoints_options_test.cpp: --db given more than once (cli/endpoints.hpp): the
// endpoints in order, as a TOML list, the command line replacing the file's, and the refusals.
#include <gtest/gtest.h>

#include <string>

#include "parse.hpp"

namespace {

using tpcc::cli::config;
using tpcc::cli::testing::error_of;
using tpcc::cli::testing::parse;

// A TOML file in a fresh temporary directory, removed with it.
class endpoints_options : public ::testing::Test {
 protected:
  std::string write_toml(const std::string& text) { return toml_.write(text); }
  tpcc::cli::testing::scratch_toml toml_{"endpoints"};
};

TEST_F(endpoints_options, EveryDbIsAnEndpointInOrderAndTheFirstIsTheDatabase) {
  auto r = parse({"run", "--db", "postgresql://a/tpcc", "--db=postgresql://b/tpcc"});
  ASSERT_TRUE(std::holds_alternative<config>(r)) << std::get<std::string>(r);
  const config& c = std::get<config>(r);
  ASSERT_EQ(c.endpoints.size(), 2U);
  EXPECT_EQ(c.endpoints[0].text, "postgresql://a/tpcc");
  EXPECT_EQ(c.endpoints[1].text, "postgresql://b/tpcc");
  EXPECT_EQ(c.db.text, "postgresql://a/tpcc");
}

TEST_F(endpoints_options, ATomlListGivesEndpointsAndTheCommandLineReplacesThem) {
  const std::string file = write_toml("db = [\"mysql://a/tpcc\", \"mysql://b/tpcc\"]\n");
  auto r = parse({"run", "--config", file});
  ASSERT_TRUE(std::holds_alternative<config>(r)) << std::get<std::string>(r);
  ASSERT_EQ(std::get<config>(r).endpoints.size(), 2U);
  EXPECT_EQ(std::get<config>(r).endpoints[1].text, "mysql://b/tpcc");
  r = parse({"run", "--config", file, "--db", "mysql://c/tpcc"});
  ASSERT_TRUE(std::holds_alternative<config>(r)) << std::get<std::string>(r);
  ASSERT_EQ(std::get<config>(r).endpoints.size(), 1U);
  EXPECT_EQ(std::get<config>(r).db.text, "mysql://c/tpcc");
  EXPECT_NE(error_of({"run", "--config", write_toml("db = [\"mysql://a/t\", 3]\n")})
                .find(":1: db must be a string or a list of strings"),
            std::string::npos);
  EXPECT_NE(error_of({"run", "--config", write_toml("db = []\n")}).find("names no database"),
            std::string::npos);
}

TEST_F(endpoints_options, TwiceMixedSqliteOrNotARunIsRefusedNamingTheEndpoint) {
  EXPECT_EQ(error_of({"run", "--db", "postgresql://u:pw@a/t", "--db", "postgresql://u:pw@a/t"}),
            "--db postgresql://u:***@a/t is given twice: each endpoint once (two endpoints of one "
            "server need two different connection strings)");
  EXPECT_NE(error_of({"run", "--db", "postgresql://a/t", "--db", "mysql://b/t"})
                .find("--db mysql://b/t is not the same kind of database"),
            std::string::npos);
  EXPECT_NE(
      error_of({"run", "--db", "sqlite:a.db", "--db", "sqlite:b.db"}).find("several SQLite files"),
      std::string::npos);
  for (const char* cmd : {"init", "load", "check", "clean"}) {
    EXPECT_NE(error_of({cmd, "--db", "postgresql://a/t", "--db", "postgresql://b/t"})
                  .find("--db is given 2 times"),
              std::string::npos)
        << cmd;
  }
  EXPECT_NE(error_of({"--db", "postgresql://a/t", "--db", "postgresql://b/t"})
                .find("--db is given 2 times"),
            std::string::npos);
}

}  // namespace
