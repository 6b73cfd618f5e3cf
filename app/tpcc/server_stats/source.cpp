// SPDX-License-Identifier: Apache-2.0
// app/tpcc/server_stats/source.cpp: what every source shares (see source.hpp).
#include "server_stats/source.hpp"

#include <charconv>
#include <cmath>
#include <limits>

#include "server_stats/kinds.hpp"

namespace tpcc::server_stats {

shoal::task<statements_reading> source::statements(driver::session& s) {
  static_cast<void>(s);
  co_return statements_reading{};
}

std::unique_ptr<source> source_for(driver::engine kind) {
  switch (kind) {
    case driver::engine::postgres:
      return make_postgres_source();
    case driver::engine::mysql:
      return make_mysql_source();
    case driver::engine::sqlite:
    case driver::engine::sim:
    case driver::engine::unknown:
      break;
  }
  return nullptr;
}

std::string refusal(const std::string& part, const driver::outcome& why) {
  std::string line = part + ": " + (why.message.empty() ? to_string(why.kind) : why.message);
  while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
  if (!why.sqlstate.empty()) line += " (SQLSTATE " + why.sqlstate + ")";
  return line;
}

double number_of(const driver::value& v) {
  if (const auto* n = std::get_if<std::int64_t>(&v)) return static_cast<double>(*n);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* t = std::get_if<std::string>(&v)) {
    double parsed = 0;
    const auto [end, error] = std::from_chars(t->data(), t->data() + t->size(), parsed);
    if (error == std::errc{} && end == t->data() + t->size()) return parsed;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

shoal::task<driver::statement_result> query_alone(driver::session& s,
                                                  const driver::statement& stmt) {
  driver::statement_result r = co_await s.execute(stmt, {});
  if (!r.ok()) {
    const driver::outcome undone = co_await s.rollback();
    static_cast<void>(undone);  // the statement's failure is what is reported
    co_return r;
  }
  const driver::outcome committed = co_await s.commit();
  if (!committed.ok()) r.status = committed;
  co_return r;
}

}  // namespace tpcc::server_stats
