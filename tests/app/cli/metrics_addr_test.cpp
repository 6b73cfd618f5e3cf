// SPDX-License-Identifier: Apache-2.0
// tests/app/cli/metrics_addr_test.cpp: --metrics-addr HOST:PORT as the parser takes it: the
// address and port read, malformed values refused naming what was expected, `run` only, and
// the key of a configuration file.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/help.hpp"
#include "cli/options.hpp"
#include "parse.hpp"

namespace {

using tpcc::cli::command;
using tpcc::cli::config;
using tpcc::cli::testing::error_of;
using tpcc::cli::testing::parse;

// The address parsed from `run --metrics-addr text`, as "host port".
std::string address_of(std::string_view text) {
  auto r = parse({"run", "--metrics-addr", text});
  if (!std::holds_alternative<config>(r)) return "error: " + std::get<std::string>(r);
  const auto& at = std::get<config>(r).metrics_addr;
  if (!at) return "none";
  return at->host + " " + std::to_string(at->port);
}

TEST(cli_metrics_addr, HostAndPortAreReadWithLocalhostAndAnEmptyHostSpelledOut) {
  EXPECT_EQ(address_of("127.0.0.1:9100"), "127.0.0.1 9100");
  EXPECT_EQ(address_of("127.0.0.1:0"), "127.0.0.1 0");
  EXPECT_EQ(address_of("localhost:65535"), "127.0.0.1 65535");
  EXPECT_EQ(address_of(":9100"), "0.0.0.0 9100");
  EXPECT_EQ(address_of("0.0.0.0:80"), "0.0.0.0 80");
  auto none = parse({"run"});
  ASSERT_TRUE(std::holds_alternative<config>(none));
  EXPECT_FALSE(std::get<config>(none).metrics_addr.has_value());
}

TEST(cli_metrics_addr, AMalformedAddressIsRefusedNamingWhatWasExpected) {
  EXPECT_NE(error_of({"run", "--metrics-addr", "9100"}).find("--metrics-addr expects HOST:PORT"),
            std::string::npos);
  EXPECT_NE(error_of({"run", "--metrics-addr", "127.0.0.1:65536"}).find("PORT from 0"),
            std::string::npos);
  EXPECT_NE(error_of({"run", "--metrics-addr", "127.0.0.1:-1"}).find("PORT from 0"),
            std::string::npos);
  EXPECT_NE(error_of({"run", "--metrics-addr", "127.0.0.1:"}).find("PORT from 0"),
            std::string::npos);
  EXPECT_NE(error_of({"run", "--metrics-addr", "prometheus.local:9100"}).find("numeric IPv4"),
            std::string::npos);
  EXPECT_NE(error_of({"run", "--metrics-addr", "300.1.1.1:9100"}).find("numeric IPv4"),
            std::string::npos);
}

TEST(cli_metrics_addr, OnlyRunTakesIt) {
  for (const std::vector<std::string_view>& args :
       {std::vector<std::string_view>{"load", "--metrics-addr", "127.0.0.1:0"},
        {"--metrics-addr", "127.0.0.1:0"},
        {"merge", "a.json", "--metrics-addr", "127.0.0.1:0"}}) {
    EXPECT_NE(error_of(args).find("--metrics-addr does not apply to"), std::string::npos)
        << args[0];
  }
  EXPECT_NE(tpcc::cli::usage(command::run).find("--metrics-addr HOST:PORT"), std::string::npos);
  EXPECT_NE(tpcc::cli::usage(command::run).find("Default: none"), std::string::npos);
  EXPECT_EQ(tpcc::cli::usage(command::load).find("--metrics-addr HOST:PORT"), std::string::npos);
}

TEST(cli_metrics_addr, AConfigurationFileSetsItByItsLongName) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("shoal-tpcc-metrics-config-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "run.toml").string();
  std::ofstream(file) << "metrics-addr = \"127.0.0.1:9464\"\n";
  auto r = parse({"run", "--config", file});
  std::ofstream(file) << "\nmetrics-addr = \"nowhere\"\n";
  const std::string wrong = error_of({"run", "--config", file});
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(std::holds_alternative<config>(r)) << std::get<std::string>(r);
  const auto& at = std::get<config>(r).metrics_addr;
  ASSERT_TRUE(at.has_value());
  EXPECT_EQ(at.value_or(tpcc::cli::listen_address{}).port, 9464);
  EXPECT_NE(wrong.find(file + ":2: metrics-addr expects HOST:PORT"), std::string::npos) << wrong;
}

}  // namespace
