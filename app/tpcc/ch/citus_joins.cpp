// SPDX-License-Identifier: Apache-2.0
// The analytic queries' setup on Citus (citus_joins.hpp).
#include "ch/citus_joins.hpp"

#include <vector>

namespace tpcc::ch {
namespace {

constexpr driver::statement probe_citus_extension{
    "tpcc_ch_probe_citus", "SELECT count(*) FROM pg_extension WHERE extname = 'citus'"};
constexpr driver::statement enable_repartition_joins{
    "tpcc_ch_repartition_joins", "SET LOCAL citus.enable_repartition_joins = on"};

}  // namespace

const driver::statement& repartition_joins_on() noexcept { return enable_repartition_joins; }

shoal::task<const driver::statement*> setup_for(driver::session& s, driver::engine dialect) {
  if (dialect != driver::engine::postgres) co_return nullptr;
  if (!(co_await s.begin()).ok()) co_return nullptr;
  const driver::statement_result r = co_await s.execute(probe_citus_extension, {});
  const bool citus = r.ok() && r.rows.size() == 1 && r.rows[0].int_at(0) > 0;
  co_await s.rollback();
  co_return citus ? &enable_repartition_joins : nullptr;
}

}  // namespace tpcc::ch
