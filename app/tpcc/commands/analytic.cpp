// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/analytic.cpp: the analytic streams' databases (see analytic.hpp).
#include "commands/analytic.hpp"

#include <cstdio>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "driver/open.hpp"
#include "schema/ch_tables.hpp"
#include "schema/schema.hpp"

namespace tpcc::commands {
namespace {

struct ch_marker {
  driver::outcome status;
  bool found = false;
};

// Whether `load --ch` committed its marker.
shoal::task<ch_marker> find_ch_marker(driver::database& db) {
  ch_marker m;
  driver::lease l = co_await db.acquire();
  if (!l) {
    m.status = l.status();
    co_return m;
  }
  const driver::outcome began = co_await l->begin();
  if (!began.ok()) {
    m.status = began;
    co_return m;
  }
  std::vector<driver::value> params;
  params.emplace_back(std::string(schema::ch_loaded_meta));
  driver::statement_result r = co_await l->execute(schema::meta_get, std::move(params));
  const driver::outcome ended = co_await l->rollback();  // read only
  m.status = r.ok() ? ended : r.status;
  m.found = r.ok() && !r.rows.empty();
  co_return m;
}

}  // namespace

std::vector<driver::database*> analytic_databases::databases() const {
  std::vector<driver::database*> out;
  out.reserve(opened.size());
  for (const auto& db : opened) out.push_back(db.get());
  return out;
}

shoal::task<int> open_analytic(const app& a, driver::database& db, analytic_databases& out) {
  if (a.cfg.analytic_streams == 0) co_return exit_ok;
  const ch_marker marker = co_await find_ch_marker(db);
  if (!marker.status.ok()) co_return fail("run --analytic-streams", marker.status.message);
  if (!marker.found) {
    std::fprintf(stderr,
                 "shoal-tpcc: run --analytic-streams: the database has no CH-benCHmark tables "
                 "loaded; load them with `shoal-tpcc load --ch` (after `init --ch`)\n");
    co_return exit_usage;
  }
  for (std::int64_t i = 0; i < a.cfg.analytic_streams; ++i) {
    driver::database_options options = database_options_of(a.cfg);
    options.connections = 1;
    auto opened = co_await driver::open_database(std::move(options));
    if (auto* refused = std::get_if<driver::outcome>(&opened)) {
      co_await close_analytic(out);
      co_return fail("run --analytic-streams", refused->message);
    }
    out.opened.push_back(std::move(std::get<0>(opened)));
  }
  co_return exit_ok;
}

shoal::task<void> close_analytic(analytic_databases& dbs) {
  for (auto& db : dbs.opened) co_await db->close();
  dbs.opened.clear();
}

}  // namespace tpcc::commands
