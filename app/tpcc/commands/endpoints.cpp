// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/endpoints.cpp: the other endpoints of a run (see endpoints.hpp).
#include "commands/endpoints.hpp"

#include <utility>
#include <variant>

#include "driver/open.hpp"

namespace tpcc::commands {

std::vector<driver::database*> other_endpoints::databases() const {
  std::vector<driver::database*> out;
  out.reserve(opened.size());
  for (const auto& db : opened) out.push_back(db.get());
  return out;
}

shoal::task<other_endpoints> open_other_endpoints(const app& a) {
  other_endpoints out;
  for (std::size_t i = 1; i < a.cfg.endpoints.size(); ++i) {
    driver::database_options options = database_options_of(a.cfg);
    options.target = a.cfg.endpoints[i].text;
    auto opened = co_await driver::open_database(std::move(options));
    if (auto* refused = std::get_if<driver::outcome>(&opened)) {
      out.failure = "cannot open " + driver::redact(a.cfg.endpoints[i].text) + " (endpoint " +
                    std::to_string(i + 1) + " of " + std::to_string(a.cfg.endpoints.size()) +
                    "): " + refused->message;
      co_await close_endpoints(out);
      co_return out;
    }
    out.opened.push_back(std::move(std::get<0>(opened)));
  }
  co_return out;
}

shoal::task<void> close_endpoints(other_endpoints& endpoints) {
  for (auto& db : endpoints.opened) co_await db->close();
  endpoints.opened.clear();
}

std::string endpoints_target(const driver::database& first, const other_endpoints& others) {
  std::string out = first.describe();
  for (const auto& db : others.opened) out.append(", ").append(db->describe());
  return out;
}

}  // namespace tpcc::commands
