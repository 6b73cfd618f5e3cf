// SPDX-License-Identifier: Apache-2.0
// app/tpcc/ch/citus_joins.hpp: the analytic queries on Citus, which plans a join of two
// distributed tables off their distribution columns only as a repartition join, off by default.
//
// What: Q7, Q8, Q9 and Q15 join ORDER_LINE to STOCK on the supplying warehouse
// (ol_supply_w_id = s_w_id) and Q20 on the item alone; on Citus, where both tables are
// distributed by warehouse, such a join fails ("the query contains a join that requires
// repartitioning") unless citus.enable_repartition_joins is on. setup_for() probes a session
// once (`SELECT count(*) FROM pg_extension WHERE extname = 'citus'`) and gives the statement
// that turns them on for one transaction (SET LOCAL), which run_query runs before the query;
// on any other engine, or when the probe fails, none.
//
// Awaiting setup_for:
//   Result: repartition_joins_on() on Citus, else nullptr (the probe's failure included: a
//           query then fails on its own terms, as it would without the probe).
//   Errors: std::bad_alloc. Cancellation: the chain's stop token reaches the probe's calls
//           (then nullptr). Resumes on: the executor it was awaited on.
//   Thread-safety: one coroutine at a time per session (session.hpp).
#pragma once

#include "driver/session.hpp"
#include "driver/target.hpp"
#include "shoal/task.hpp"

namespace tpcc::ch {

// SET LOCAL citus.enable_repartition_joins = on.
[[nodiscard]] const driver::statement& repartition_joins_on() noexcept;

shoal::task<const driver::statement*> setup_for(driver::session& s, driver::engine dialect);

}  // namespace tpcc::ch
