// SPDX-License-Identifier: Apache-2.0
// tests/app/cli/options_test.cpp: the options table: parsing, errors naming the input, usage.
#include "cli/options.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command_line.hpp"
#include "cli/help.hpp"
#include "cli/values.hpp"
#include "parse.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::cli::command;
using tpcc::cli::config;
using tpcc::cli::testing::error_of;
using tpcc::cli::testing::parse;

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
  EXPECT_NE(error_of({"--duration", "soon"}).find("a positive duration"), std::string::npos);
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

TEST(cli_command_line, RecordsTheArgumentsQuotedAndThePasswordRedacted) {
  const std::vector<std::string_view> args{"run", "--db", "postgresql://u:secret@db/tpcc", "--json",
                                           "my result.json"};
  const std::string line = tpcc::cli::command_line(args);
  EXPECT_EQ(line.find("secret"), std::string::npos) << line;
  EXPECT_EQ(line.find("shoal-tpcc run --db "), 0U) << line;
  EXPECT_NE(line.find("'my result.json'"), std::string::npos) << line;
  const std::vector<std::string_view> joined{"--db=host=db password=secret dbname=tpcc"};
  EXPECT_EQ(tpcc::cli::command_line(joined).find("secret"), std::string::npos);
}

// A TOML file in a fresh temporary directory, removed with it.
class config_file_test : public ::testing::Test {
 protected:
  std::string write(const std::string& text) {
    std::ofstream(path_) << text;
    return path_.string();
  }
  std::filesystem::path dir_ =
      std::filesystem::temp_directory_path() / ("shoal-tpcc-config-" + std::to_string(::getpid()));
  std::filesystem::path path_ = dir_ / "run.toml";
  void SetUp() override { std::filesystem::create_directories(dir_); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
};

TEST_F(config_file_test, KeysAreLongOptionsAndTheCommandLineOverridesThem) {
  const std::string file = write(
      "# a run\nwarehouses = 12\nduration = \"1h30m\"\nwarmup = \"5m\"\nwait-scale = 0.5\n"
      "no-tui = true\nno-progress = false\n");
  auto r = parse({"run", "--config", file, "--warmup", "1m"});
  ASSERT_TRUE(std::holds_alternative<config>(r)) << std::get<std::string>(r);
  const config& c = std::get<config>(r);
  EXPECT_EQ(c.warehouses, 12);
  EXPECT_EQ(c.duration, 90min);
  EXPECT_EQ(c.warmup, 1min);  // the command line wins
  EXPECT_EQ(c.wait_scale, 0.5);
  EXPECT_FALSE(c.tui);
  EXPECT_TRUE(c.progress);  // false leaves a flag out
  EXPECT_EQ(c.config_path, file);
}

TEST_F(config_file_test, ErrorsNameTheFileAndTheLine) {
  std::string file = write("warehouses = 3\nduraton = \"10m\"\n");
  EXPECT_EQ(error_of({"run", "--config", file}), file + ":2: unknown option 'duraton'");
  file = write("\n\nduration = \"soon\"\n");
  EXPECT_NE(error_of({"run", "--config", file}).find(file + ":3: duration expects"),
            std::string::npos);
  file = write("load-parallel = 4\n");
  EXPECT_NE(error_of({"run", "--config=" + file}).find(":1: --load-parallel does not apply"),
            std::string::npos);
  file = write("no-tui = \"yes\"\n");
  EXPECT_NE(error_of({"run", "--config", file}).find(":1: no-tui is a flag"), std::string::npos);
  file = write("[run]\nduration = \"1m\"\n");
  EXPECT_NE(error_of({"run", "--config", file}).find(":1: run must be a string"),
            std::string::npos);
  file = write("duration = \"1m\n");
  EXPECT_NE(error_of({"run", "--config", file}).find("--config " + file + ":1:"),
            std::string::npos);
  EXPECT_NE(error_of({"run", "--config", (dir_ / "missing.toml").string()}).find("missing.toml"),
            std::string::npos);
}

// Found by the config_file fuzz target: toml++ quotes the file's bytes, a newline among them.
TEST_F(config_file_test, EveryErrorIsOneLine) {
  for (const std::string text :
       {"no-tui = tru\n", "\"dura\\ntion\" = \"1m\"\n", "duration = \"1m\\n2m\"\n"}) {
    const std::string error = error_of({"run", "--config", write(text)});
    EXPECT_FALSE(error.empty()) << text;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
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
  EXPECT_FALSE(tpcc::cli::read_duration(""));
}

TEST(cli_values, CompositeDurationsAddTheirPiecesInDecreasingUnits) {
  EXPECT_EQ(tpcc::cli::read_duration("1h30m"), 90min);
  EXPECT_EQ(tpcc::cli::read_duration("2m30s"), 150s);
  EXPECT_EQ(tpcc::cli::read_duration("1h0m5s"), 3605s);
  EXPECT_EQ(tpcc::cli::read_duration("1s500ms"), 1500ms);
  EXPECT_EQ(tpcc::cli::read_duration("0.5h15m"), 45min);
  EXPECT_FALSE(tpcc::cli::read_duration("30m1h"));  // increasing units
  EXPECT_FALSE(tpcc::cli::read_duration("1m1m"));   // a unit twice
  EXPECT_FALSE(tpcc::cli::read_duration("1h30"));   // a piece without its unit
  EXPECT_FALSE(tpcc::cli::read_duration("1h-30m"));
}

TEST(cli_options, EverySeedAResultPrintsIsAccepted) {
  auto r = parse({"run", "--seed", "11376129682864994259"});
  ASSERT_TRUE(std::holds_alternative<config>(r)) << std::get<std::string>(r);
  EXPECT_EQ(std::get<config>(r).seed, 11376129682864994259ULL);
  EXPECT_NE(error_of({"run", "--seed", "0"}).find("--seed expects"), std::string::npos);
  EXPECT_NE(error_of({"run", "--seed", "18446744073709551616"}).find("--seed expects"),
            std::string::npos);
  EXPECT_NE(error_of({"run", "--seed", "-3"}).find("--seed expects"), std::string::npos);
}

TEST(cli_options, AnEmptyMeasurementIntervalIsRefused) {
  EXPECT_NE(error_of({"run", "--duration", "0s"}).find("--duration expects a positive duration"),
            std::string::npos);
  EXPECT_NE(error_of({"run", "--duration", "0"}).find("got '0'"), std::string::npos);
  auto r = parse({"run", "--duration", "1h30m", "--warmup", "0s"});
  ASSERT_TRUE(std::holds_alternative<config>(r)) << std::get<std::string>(r);
  EXPECT_EQ(std::get<config>(r).duration, 90min);
  EXPECT_EQ(std::get<config>(r).warmup, 0s);
}

TEST(cli_options, AnOptionTheCommandDoesNotTakeIsAnErrorNamingTheCommand) {
  EXPECT_EQ(error_of({"load", "--duration", "5m"}),
            "--duration does not apply to `shoal-tpcc load` (it is an option of the default job, "
            "run)");
  EXPECT_NE(error_of({"check", "--json", "x.json"}).find("`shoal-tpcc check`"), std::string::npos);
  EXPECT_NE(error_of({"merge", "a.json", "--db", "sqlite:x"}).find("--db does not apply"),
            std::string::npos);
  EXPECT_NE(error_of({"clean", "--keep"}).find("the default job"), std::string::npos);
  EXPECT_NE(error_of({"help", "--warehouses", "3"}).find("`shoal-tpcc help`"), std::string::npos);
  // What each command does take still parses.
  for (const std::vector<std::string_view>& ok :
       {std::vector<std::string_view>{"load", "--warehouses", "3", "--load-parallel", "2"},
        {"check", "--check-chunk", "5", "--connections", "4"},
        {"merge", "a.json", "--json", "m.json", "--html", "m.html"},
        {"--keep", "--duration", "5s", "--check-chunk", "2", "--load-parallel", "1"},
        {"clean", "--db", "sqlite:x.db"}}) {
    EXPECT_TRUE(std::holds_alternative<config>(parse(ok))) << error_of(ok);
  }
}

TEST(cli_options, CompareTakesTwoOrMoreFilesTheReportsAndAGate) {
  auto r = parse({"compare", "a.json", "b.json", "c.json", "--fail-if-slower", "2.5", "--json",
                  "d.json", "--html", "d.html"});
  ASSERT_TRUE(std::holds_alternative<config>(r)) << std::get<std::string>(r);
  const config& c = std::get<config>(r);
  EXPECT_EQ(c.cmd, command::compare);
  EXPECT_EQ(c.inputs, (std::vector<std::string>{"a.json", "b.json", "c.json"}));
  EXPECT_EQ(c.fail_if_slower, std::optional<double>(2.5));
  EXPECT_EQ(c.json_path, "d.json");
  EXPECT_FALSE(std::get<config>(parse({"compare", "a.json", "b.json"})).fail_if_slower);
  EXPECT_EQ(error_of({"compare", "a.json"}),
            "compare needs at least two result files: shoal-tpcc compare A.json B.json [C.json "
            "...]");
  EXPECT_EQ(error_of({"compare", "a.json", "b.json", "--fail-if-slower", "-5"}),
            "--fail-if-slower expects a percentage from 0 to 1000, such as 5, got '-5'");
  EXPECT_NE(error_of({"compare", "a.json", "b.json", "--csv", "x.csv"}).find("does not apply"),
            std::string::npos);
  EXPECT_NE(error_of({"merge", "a.json", "--fail-if-slower", "5"}).find("does not apply"),
            std::string::npos);
}

TEST(cli_options, HelpOfOneCommandInEverySpelling) {
  for (const std::vector<std::string_view>& args :
       {std::vector<std::string_view>{"help", "run"}, {"run", "--help"}, {"run", "-h"}}) {
    auto r = parse(args);
    ASSERT_TRUE(std::holds_alternative<config>(r)) << std::get<std::string>(r);
    EXPECT_EQ(std::get<config>(r).cmd, command::help);
    EXPECT_EQ(std::get<config>(r).help_topic, std::optional<command>(command::run));
  }
  auto general = parse({"-h"});
  ASSERT_TRUE(std::holds_alternative<config>(general));
  EXPECT_EQ(std::get<config>(general).cmd, command::help);
  EXPECT_FALSE(std::get<config>(general).help_topic.has_value());
  EXPECT_EQ(error_of({"help", "frobnicate"}), "help: unknown command 'frobnicate'");
}

TEST(cli_options, OneCommandsHelpListsOnlyItsOptionsWithAnExample) {
  const std::string load = tpcc::cli::usage(command::load);
  EXPECT_NE(load.find("Usage: shoal-tpcc load [OPTIONS]"), std::string::npos) << load;
  EXPECT_NE(load.find("--load-parallel"), std::string::npos);
  EXPECT_NE(load.find("--seed"), std::string::npos);
  EXPECT_EQ(load.find("--duration"), std::string::npos);
  EXPECT_EQ(load.find("--json"), std::string::npos);
  EXPECT_NE(load.find("Example:\n  shoal-tpcc load "), std::string::npos);
  const std::string run = tpcc::cli::usage(command::run);
  for (const char* word :
       {"--duration", "--warmup", "--json", "--html", "--seed", "Default: 2m", "Exit status"}) {
    EXPECT_NE(run.find(word), std::string::npos) << word;
  }
  EXPECT_EQ(run.find("--load-parallel"), std::string::npos);
  EXPECT_NE(tpcc::cli::usage(command::merge).find("merge [OPTIONS] FILE.json..."),
            std::string::npos);
}

// --procedures: stored procedures live in a server; SQLite and the simulation are refused before
// any work, naming the option and the target; init and run take it, load does not.
TEST(cli_options, ProceduresOnSqliteOrSimIsRefusedNamingTheDatabase) {
  const std::string on_sqlite = error_of({"run", "--procedures"});
  EXPECT_NE(on_sqlite.find("--procedures needs PostgreSQL or MySQL/MariaDB"), std::string::npos)
      << on_sqlite;
  EXPECT_NE(on_sqlite.find("sqlite:shoal-tpcc.db is SQLite"), std::string::npos) << on_sqlite;
  const std::string on_sim = error_of({"run", "--procedures", "--db", "sim:latency=1ms"});
  EXPECT_NE(on_sim.find("is the simulated database"), std::string::npos) << on_sim;
  const std::string on_init = error_of({"init", "--db", "sqlite:/tmp/x.db", "--procedures"});
  EXPECT_NE(on_init.find("--procedures needs"), std::string::npos) << on_init;
  const std::string on_load = error_of({"load", "--procedures", "--db", "postgresql://h/db"});
  EXPECT_NE(on_load.find("--procedures does not apply to `shoal-tpcc load`"), std::string::npos)
      << on_load;
  for (const std::string_view cmd : {"init", "run"}) {
    auto r = parse({cmd, "--db", "mysql://root@localhost/tpcc", "--procedures"});
    ASSERT_TRUE(std::holds_alternative<config>(r)) << std::get<std::string>(r);
    EXPECT_TRUE(std::get<config>(r).procedures);
  }
}

}  // namespace
