// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_server.hpp: the HTML report's section of the database's own figures.
//
// What: a <section id="server">: the figures the database gave about itself
// (server_stats/figures.hpp) as a chart of the plotted counters' rates per second over the run
// (phases shaded), a table of every figure over the measurement window (counters: total and per
// second; gauges: their mean), pg_stat_statements' top statements of the window when read, the
// notes (refusals, said once) and what reading cost. Without figures, the section says why
// ("not collected for this database"). A run whose endpoints reached several servers
// (run_result::more_servers) has one such section per server, each titled with its name
// (report/servers.hpp): id "server" for the first, "server-<k + 1>" for more_servers[k - 1].
// Every string embedded is escaped.
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "report/html_data.hpp"
#include "run_result/result.hpp"

namespace tpcc::report::html {

[[nodiscard]] std::string server_section(const run::run_result& r, const phases& p);

}  // namespace tpcc::report::html
