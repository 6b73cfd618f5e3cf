// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/endpoints.cpp: checking several --db (see endpoints.hpp).
#include "cli/endpoints.hpp"

#include <algorithm>
#include <cstddef>
#include <string_view>

#include "cli/option_table.hpp"
#include "cli/values.hpp"
#include "driver/open.hpp"

namespace tpcc::cli {
namespace {

std::string shown(const driver::target& t) { return driver::redact(t.text); }

// The first endpoint given twice, if any.
std::optional<std::string> repeated_endpoint(const config& c) {
  for (std::size_t i = 1; i < c.endpoints.size(); ++i) {
    const auto& t = c.endpoints[i];
    const auto end = c.endpoints.begin() + static_cast<std::ptrdiff_t>(i);
    const bool seen = std::any_of(c.endpoints.begin(), end,
                                  [&t](const driver::target& u) { return u.text == t.text; });
    if (seen) {
      return join({"--db ", shown(t),
                   " is given twice: each endpoint once (two endpoints of one server need two "
                   "different connection strings)"});
    }
  }
  return std::nullopt;
}

std::optional<std::string> mixed_kinds(const config& c) {
  for (const auto& t : c.endpoints) {
    if (t.kind != c.endpoints.front().kind) {
      return join({"--db ", shown(t), " is not the same kind of database as --db ",
                   shown(c.endpoints.front()),
                   ": the endpoints of a run are nodes of one database"});
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check_endpoints(const config& c) {
  if (c.endpoints.size() <= 1) return std::nullopt;
  if (c.cmd != command::run) {
    constexpr std::string_view why =
        " takes one: several endpoints are for `shoal-tpcc run` (init, load and check need one "
        "node of the database)";
    return join({"--db is given ", std::to_string(c.endpoints.size()), " times, but ",
                 command_phrase(c.cmd), why});
  }
  if (c.endpoints.front().is_sqlite()) {
    return join({"--db ", shown(c.endpoints[1]),
                 ": several SQLite files are several databases, not endpoints of one; give one "
                 "sqlite: target"});
  }
  if (auto wrong = mixed_kinds(c)) return wrong;
  return repeated_endpoint(c);
}

}  // namespace tpcc::cli
