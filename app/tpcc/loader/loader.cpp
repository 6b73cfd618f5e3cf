// SPDX-License-Identifier: Apache-2.0
// The parallel, resumable load (loader.hpp).
#include "loader/loader.hpp"

#include <algorithm>
#include <atomic>
#include <ctime>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "loader/load_part.hpp"
#include "random/rng.hpp"
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
  return std::nullopt;
}

// The load time of C_SINCE and the other dates: now, UTC, "YYYY-MM-DD HH:MM:SS".
std::string now_text() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::string text(19, '\0');
  text.resize(std::strftime(text.data(), text.size() + 1, "%Y-%m-%d %H:%M:%S", &utc));
  return text;
}

part_plan plan_of(const load_options& options, const schema::load_meta& meta,
                  load_progress& progress) {
  return {.seed = options.seed,
          .constants = meta.constants,
          .load_time = now_text(),
          .rows_per_copy = options.rows_per_copy,
          .method = options.method,
          .progress = &progress};
}

std::vector<std::int64_t> parts_left(const schema::load_meta& meta, std::int64_t warehouses) {
  std::vector<std::int64_t> parts;
  for (std::int64_t w = 0; w <= warehouses; ++w) {
    if (!meta.is_loaded(w)) parts.push_back(w);
  }
  return parts;
}

void start_progress(load_progress& progress, const std::vector<std::int64_t>& parts,
                    std::int64_t warehouses) {
  const bool items_left = !parts.empty() && parts.front() == 0;
  const auto warehouses_left = static_cast<std::int64_t>(parts.size()) - (items_left ? 1 : 0);
  progress.start(warehouses, warehouses - warehouses_left, !items_left);
}

// Takes parts from the shared cursor until none is left or one fails.
shoal::task<outcome> loading_coroutine(driver::database& db, work& w) {
  for (;;) {
    const std::size_t i = w.next.fetch_add(1, std::memory_order_relaxed);
    if (i >= w.parts.size()) co_return outcome::success();
    const outcome loaded = co_await load_part(db, w.plan, w.parts[i]);
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
  random::rng r(options.seed);
  meta.warehouses = options.warehouses;
  meta.constants = random::load_constants(r);
  driver::lease l = co_await db.acquire();
  if (!l) co_return l.status();
  outcome result = co_await l->begin();
  if (result.ok()) result = co_await schema::write_meta(*l, meta);
  if (result.ok()) result = co_await l->commit();
  if (!result.ok()) co_await l->rollback();
  co_return result;
}

// The meta to load under: read, checked against the options, recorded the first time. A load
// not told how many warehouses (0) takes the count an earlier load recorded, else 1.
shoal::task<schema::meta_result> agreed_meta(driver::database& db, load_options& options) {
  schema::meta_result read = co_await schema::read_meta(db);
  if (std::holds_alternative<outcome>(read)) co_return read;
  schema::load_meta& meta = std::get<schema::load_meta>(read);
  if (options.warehouses == 0) options.warehouses = meta.warehouses != 0 ? meta.warehouses : 1;
  if (meta.warehouses != 0 && meta.warehouses != options.warehouses) {
    co_return failed("database was loaded with " + std::to_string(meta.warehouses) +
                     (meta.warehouses == 1 ? " warehouse" : " warehouses") + ", asked for " +
                     std::to_string(options.warehouses));
  }
  if (meta.warehouses != 0) co_return read;
  const outcome recorded = co_await record_meta(db, meta, options);
  if (!recorded.ok()) co_return recorded;
  co_return read;
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
  w.parts = parts_left(meta, options.warehouses);
  start_progress(progress, w.parts, options.warehouses);
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
