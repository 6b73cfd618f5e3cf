// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/target.cpp: reading a --db value (see target.hpp).
#include "driver/target.hpp"

#include "driver/mysql/mysql.hpp"
#include "driver/postgres/postgres.hpp"
#include "driver/sim/sim.hpp"

namespace tpcc::driver {
namespace {

constexpr std::string_view sqlite_prefix = "sqlite:";

}  // namespace

engine engine_of(std::string_view text) noexcept {
  if (text.starts_with(sqlite_prefix)) return engine::sqlite;
  if (sim::accepts(text)) return engine::sim;
  if (mysql::accepts(text)) return engine::mysql;
  if (postgres::accepts(text)) return engine::postgres;
  return engine::unknown;
}

std::variant<target, std::string> parse_target(std::string_view text) {
  if (text.empty())
    return std::string(
        "expects sqlite:PATH, a PostgreSQL connection string or mysql://user@host/db");
  const engine kind = engine_of(text);
  if (kind == engine::sim) {
    auto settings = sim::parse_target(text);
    if (auto* wrong = std::get_if<std::string>(&settings)) {
      return "(simulated database): " + *wrong;
    }
  }
  return target{.text = std::string(text), .kind = kind};
}

std::string_view sqlite_path(std::string_view text) noexcept {
  return text.starts_with(sqlite_prefix) ? text.substr(sqlite_prefix.size()) : std::string_view{};
}

}  // namespace tpcc::driver
