// SPDX-License-Identifier: Apache-2.0
// CH-benCHmark's added tables loaded in one transaction (ch_load.hpp).
#include "loader/ch_load.hpp"

#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "driver/bulk.hpp"
#include "loader/ch_population.hpp"
#include "loader/load_part.hpp"
#include "schema/ch_tables.hpp"
#include "schema/schema.hpp"
#include "shoal/stop.hpp"

namespace tpcc::loader {
namespace {

using driver::outcome;

std::vector<driver::value> ch_meta_name() {
  std::vector<driver::value> params;
  params.emplace_back(std::string(schema::ch_loaded_meta));
  return params;
}

// Whether the marker is there, inside the open transaction.
shoal::task<driver::statement_result> find_marker(driver::session& s) {
  co_return co_await s.execute(schema::meta_get, ch_meta_name());
}

// Every chunk, then the marker and the commit in one batch.
shoal::task<outcome> write_ch_rows(driver::session& s, std::uint64_t seed,
                                   std::size_t rows_per_copy, std::int64_t& rows_written) {
  ch_population p(seed);
  driver::bulk_rows rows;
  while (p.next(rows, rows_per_copy)) {
    if (shoal::stop_requested()) co_return cancelled_outcome();
    const outcome wrote = co_await s.copy(rows);
    if (!wrote.ok()) co_return wrote;
    rows_written += static_cast<std::int64_t>(rows.rows());
  }
  if (shoal::stop_requested()) co_return cancelled_outcome();
  std::vector<driver::call> calls(1);
  calls[0].stmt = &schema::meta_put;
  calls[0].params = ch_meta_name();
  calls[0].params.emplace_back(std::string("1"));
  const std::vector<driver::statement_result> results =
      co_await s.execute_batch(calls, driver::then::commit);
  co_return first_failure(results);
}

}  // namespace

shoal::task<ch_load_result> load_ch(driver::database& db, std::uint64_t seed,
                                    std::size_t rows_per_copy) {
  ch_load_result result;
  driver::lease l = co_await db.acquire();
  if (!l) {
    result.status = l.status();
    co_return result;
  }
  result.status = co_await l->begin();
  if (result.status.ok()) {
    const driver::statement_result marker = co_await find_marker(*l);
    result.status = marker.status;
    result.already_loaded = marker.ok() && !marker.rows.empty();
  }
  if (result.status.ok() && result.already_loaded) {
    result.status = co_await l->commit();
    co_return result;
  }
  if (result.status.ok())
    result.status = co_await write_ch_rows(*l, seed, rows_per_copy, result.rows);
  if (result.status.ok()) co_return result;
  result.rows = 0;
  co_await shoal::with_stop_token(std::stop_token(), l->rollback());
  if (shoal::stop_requested()) result.status = cancelled_outcome();
  co_return result;
}

}  // namespace tpcc::loader
