// SPDX-License-Identifier: Apache-2.0
// One part of a load in one transaction (load_part.hpp).
#include "loader/load_part.hpp"

#include <stop_token>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "driver/bulk.hpp"
#include "loader/insert_rows.hpp"
#include "loader/population.hpp"
#include "schema/schema.hpp"
#include "shoal/stop.hpp"

namespace tpcc::loader {
namespace {

using driver::outcome;
using driver::statement_result;

population population_of(const part_plan& plan, std::int64_t w_id) {
  if (w_id == 0) return population::items(plan.seed);
  return population::warehouse(plan.seed, w_id, plan.constants, plan.load_time);
}

// The size of the generated values: a text's length, 8 per number, 0 per NULL.
std::int64_t payload_bytes(const driver::bulk_rows& rows) {
  std::int64_t bytes = 0;
  for (const driver::value& v : rows.values) {
    if (const auto* text = std::get_if<std::string>(&v)) {
      bytes += static_cast<std::int64_t>(text->size());
    } else if (!driver::is_null(v)) {
      bytes += 8;
    }
  }
  return bytes;
}

std::vector<driver::call> mark_calls(std::int64_t w_id) {
  std::vector<driver::call> calls(1);
  calls[0].stmt = &schema::loaded_mark;
  calls[0].params.emplace_back(w_id);
  return calls;
}

shoal::task<outcome> write_chunk(driver::session& s, const driver::bulk_rows& rows,
                                 load_method method) {
  if (method == load_method::insert) co_return co_await insert_rows(s, rows);
  co_return co_await s.copy(rows);
}

// Tells the progress (if any) which table a part is writing: started on its first chunk,
// finished when the next table's first chunk comes or the part has written everything. Called
// once per chunk; it costs the progress two relaxed adds per chunk, the rest per table.
class table_tracker {
 public:
  explicit table_tracker(load_progress* progress) noexcept : progress_(progress) {}

  void next_chunk(std::string_view table) {
    if (progress_ == nullptr || table == name_) return;
    finish();
    name_ = table;
    index_ = table_index(table);
    progress_->table_started(index_);
  }
  void written(const driver::bulk_rows& rows) {
    if (progress_ == nullptr) return;
    progress_->add(index_, static_cast<std::int64_t>(rows.rows()), payload_bytes(rows));
  }
  void finish() {
    if (progress_ == nullptr || name_.empty()) return;
    progress_->table_finished(index_);
    name_ = {};
  }

 private:
  load_progress* progress_;
  std::string_view name_;
  std::size_t index_ = table_count;
};

// Every chunk of the part, stopping between chunks when asked to.
shoal::task<outcome> write_all(driver::session& s, const part_plan& plan, std::int64_t w_id) {
  population p = population_of(plan, w_id);
  driver::bulk_rows rows;
  table_tracker tracker(plan.progress);
  while (p.next(rows, plan.rows_per_copy)) {
    if (shoal::stop_requested()) co_return cancelled_outcome();
    tracker.next_chunk(rows.table);
    const outcome wrote = co_await write_chunk(s, rows, plan.method);
    if (!wrote.ok()) co_return wrote;
    tracker.written(rows);
  }
  tracker.finish();
  co_return outcome::success();
}

// The tpcc_loaded marker and the commit, in one batch.
shoal::task<outcome> mark_and_commit(driver::session& s, std::int64_t w_id) {
  if (shoal::stop_requested()) co_return cancelled_outcome();
  const std::vector<driver::call> calls = mark_calls(w_id);
  const std::vector<statement_result> results =
      co_await s.execute_batch(calls, driver::then::commit);
  co_return first_failure(results);
}

void count_done(const part_plan& plan, std::int64_t w_id) {
  if (plan.progress == nullptr) return;
  if (w_id == 0) {
    plan.progress->items_done();
  } else {
    plan.progress->warehouse_done();
  }
}

}  // namespace

outcome cancelled_outcome() { return outcome::make(driver::outcome_kind::failed, "", "cancelled"); }

shoal::task<outcome> load_part(driver::database& db, const part_plan& plan, std::int64_t w_id) {
  driver::lease l = co_await db.acquire();
  if (!l) co_return l.status();
  outcome result = co_await l->begin();
  if (result.ok()) result = co_await write_all(*l, plan, w_id);
  if (result.ok()) result = co_await mark_and_commit(*l, w_id);
  if (result.ok()) {
    count_done(plan, w_id);
    co_return result;
  }
  co_await shoal::with_stop_token(std::stop_token(), l->rollback());
  if (shoal::stop_requested()) co_return cancelled_outcome();
  co_return result;
}

}  // namespace tpcc::loader
