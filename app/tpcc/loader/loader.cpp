// SPDX-License-Identifier: Apache-2.0
// The parallel, resumable load (loader.hpp).
#include "loader/loader.hpp"

#include <algorithm>
#include <atomic>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "loader/load_part.hpp"
#include "loader/population.hpp"
#include "schema/apply.hpp"
#include "schema/meta.hpp"
#include "shoal/stop.hpp"
#include "shoal/task_group.hpp"

namespace tpcc::loader {
namespace {

using driver::outcome;
using driver::outcome_kind;

// The parts still to load and a cursor the loading coroutines share.
struct work {
  part_plan plan;
  std::vector<std::int64_t> parts;   // 0 = ITEM, else a w_id
  std::atomic<std::size_t> next{0};  // relaxed: only hands out distinct indices
};

outcome failed(std::string message) {
  return outcome::make(outcome_kind::failed, "", std::move(message));
}

std::optional<outcome> check_options(const load_options& o) {
  if (o.warehouses < 0) {  // 0: as recorded
    return failed("warehouses must be at least 1, got " + std::to_string(o.warehouses));
  }
  if (o.parallel < 1) return failed("parallel must be at least 1");
  if (o.rows_per_copy < 1) return failed("rows_per_copy must be at least 1");
  if (o.first_warehouse < 1) {
    return failed("first_warehouse must be at least 1, got " + std::to_string(o.first_warehouse));
  }
  return std::nullopt;
}

part_plan plan_of(const load_options& options, const schema::load_meta& meta,
                  load_progress& progress) {
  return {.seed = options.seed,
          .constants = meta.constants,
          .load_time = load_time_now(),
          .rows_per_copy = options.rows_per_copy,
          .method = options.method,
          .progress = &progress};
}

// The range of warehouses this load takes (all of them unless a shard's).
std::int64_t range_first(const load_options& o) { return o.first_warehouse; }
std::int64_t range_last(const load_options& o) { return std::min(o.last_warehouse, o.warehouses); }

std::vector<std::int64_t> parts_left(const schema::load_meta& meta, const load_options& o) {
  std::vector<std::int64_t> parts;
  if (o.load_items && !meta.is_loaded(0)) parts.push_back(0);
  for (std::int64_t w = range_first(o); w <= range_last(o); ++w) {
    if (!meta.is_loaded(w)) parts.push_back(w);
  }
  return parts;
}

void start_progress(load_progress& progress, const std::vector<std::int64_t>& parts,
                    const load_options& o) {
  const bool items_left = !parts.empty() && parts.front() == 0;
  const auto warehouses_left = static_cast<std::int64_t>(parts.size()) - (items_left ? 1 : 0);
  const std::int64_t taken = std::max<std::int64_t>(range_last(o) - range_first(o) + 1, 0);
  progress.start(taken, taken - warehouses_left, !items_left);
}

bool is_busy(const outcome& o) { return o.kind == outcome_kind::retryable; }

// One part, tried again while it ends retryable (busy_attempts in all).
shoal::task<outcome> load_part_retrying(driver::database& db, const part_plan& plan,
                                        std::int64_t part) {
  outcome loaded = co_await load_part(db, plan, part);
  for (int attempt = 1; attempt < busy_attempts && is_busy(loaded); ++attempt) {
    if (shoal::stop_requested()) co_return cancelled_outcome();
    loaded = co_await load_part(db, plan, part);
  }
  co_return loaded;
}

// Takes parts from the shared cursor until none is left or one fails.
shoal::task<outcome> loading_coroutine(driver::database& db, work& w) {
  for (;;) {
    const std::size_t i = w.next.fetch_add(1, std::memory_order_relaxed);
    if (i >= w.parts.size()) co_return outcome::success();
    const outcome loaded = co_await load_part_retrying(db, w.plan, w.parts[i]);
    if (!loaded.ok()) co_return loaded;
  }
}

// Runs `count` loading coroutines; the first failure cancels the others and is returned.
shoal::task<outcome> run_coroutines(shoal::task_group<outcome>& group, driver::database& db,
                                    work& w, std::size_t count) {
  for (std::size_t k = 0; k < count; ++k) group.spawn(loading_coroutine(db, w));
  outcome first = outcome::success();
  for (;;) {
    std::optional<shoal::indexed_result<outcome>> ended = co_await group.next_result();
    if (!ended.has_value()) break;
    outcome o = ended->take_value();
    if (!o.ok() && first.ok()) {
      first = std::move(o);
      group.cancel();
    }
  }
  co_return first;
}

// Records the warehouse count and fresh NURand load constants (clause 2.1.6).
shoal::task<outcome> record_meta(driver::database& db, schema::load_meta& meta,
                                 const load_options& options) {
  meta.warehouses = options.warehouses;
  meta.constants = load_constants_for(options.seed);
  driver::lease l = co_await db.acquire();
  if (!l) co_return l.status();
  outcome result = co_await l->begin();
  if (result.ok()) result = co_await schema::write_meta(*l, meta);
  if (result.ok()) result = co_await l->commit();
  if (!result.ok()) co_await l->rollback();
  co_return result;
}

outcome count_refused(std::int64_t recorded, std::int64_t asked) {
  return failed("database was loaded with " + std::to_string(recorded) +
                (recorded == 1 ? " warehouse" : " warehouses") + ", asked for " +
                std::to_string(asked));
}

// The meta to load under: read, checked against the options, recorded the first time. A load
// not told how many warehouses (0) takes the count an earlier load recorded, else 1. When the
// recording fails because another load (a shard started together) recorded it first, what that
// one recorded is read and taken.
shoal::task<schema::meta_result> agreed_meta_once(driver::database& db, load_options& options) {
  schema::meta_result read = co_await schema::read_meta(db);
  if (std::holds_alternative<outcome>(read)) co_return read;
  schema::load_meta& meta = std::get<schema::load_meta>(read);
  if (options.warehouses == 0) options.warehouses = meta.warehouses != 0 ? meta.warehouses : 1;
  if (meta.warehouses != 0 && meta.warehouses != options.warehouses) {
    co_return count_refused(meta.warehouses, options.warehouses);
  }
  if (meta.warehouses != 0) co_return read;
  const outcome recorded = co_await record_meta(db, meta, options);
  if (recorded.ok()) co_return read;
  schema::meta_result again = co_await schema::read_meta(db);
  const auto* other = std::get_if<schema::load_meta>(&again);
  if (other == nullptr || other->warehouses == 0) co_return recorded;
  if (other->warehouses != options.warehouses) {
    co_return count_refused(other->warehouses, options.warehouses);
  }
  co_return again;
}

shoal::task<schema::meta_result> agreed_meta(driver::database& db, load_options& options) {
  schema::meta_result agreed = co_await agreed_meta_once(db, options);
  for (int attempt = 1; attempt < busy_attempts; ++attempt) {
    const auto* refused = std::get_if<outcome>(&agreed);
    if (refused == nullptr || !is_busy(*refused) || shoal::stop_requested()) break;
    agreed = co_await agreed_meta_once(db, options);
  }
  co_return agreed;
}

}  // namespace

shoal::task<outcome> load(driver::database& db, load_options options, load_progress& progress) {
  const std::optional<outcome> bad = check_options(options);
  if (bad.has_value()) co_return *bad;
  schema::meta_result agreed = co_await agreed_meta(db, options);
  if (auto* refused = std::get_if<outcome>(&agreed)) co_return std::move(*refused);
  const schema::load_meta& meta = std::get<schema::load_meta>(agreed);
  work w;
  w.plan = plan_of(options, meta, progress);
  w.parts = parts_left(meta, options);
  start_progress(progress, w.parts, options);
  const std::size_t count = std::min(options.parallel, w.parts.size());
  auto body = [&db, &w, count](shoal::task_group<outcome>& group) {
    return run_coroutines(group, db, w, count);
  };
  const outcome loaded = co_await shoal::with_task_group<outcome>(body);
  if (shoal::stop_requested()) co_return cancelled_outcome();
  if (!loaded.ok() || !options.build_indexes) co_return loaded;
  const outcome indexed = co_await schema::create_indexes(db);
  if (!indexed.ok()) co_return indexed;
  co_return co_await schema::analyze_tables(db);
}

}  // namespace tpcc::loader
