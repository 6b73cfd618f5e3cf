// SPDX-License-Identifier: Apache-2.0
// check_consistency (check.hpp): the twelve conditions, chunk by chunk.
#include "check/check.hpp"

#include <chrono>
#include <functional>
#include <stdexcept>
#include <utility>

#include "check/conditions.hpp"
#include "check/merge.hpp"
#include "driver/session.hpp"

namespace tpcc::check {
namespace {

using driver::statement_result;

// Attempts per chunk when the database refuses for concurrency (serialization failure).
constexpr int max_attempts = 3;

void validate(const check_options& options) {
  if (options.first_warehouse < 1) {
    throw std::invalid_argument("check: first_warehouse must be >= 1, got " +
                                std::to_string(options.first_warehouse));
  }
  if (options.last_warehouse < options.first_warehouse) {
    throw std::invalid_argument("check: last_warehouse (" + std::to_string(options.last_warehouse) +
                                ") must be >= first_warehouse (" +
                                std::to_string(options.first_warehouse) + ")");
  }
  if (options.chunk < 1) {
    throw std::invalid_argument("check: chunk must be >= 1, got " + std::to_string(options.chunk));
  }
}

// The last warehouse of the chunk that starts at `from`.
std::int64_t chunk_end(const check_options& options, std::int64_t from) {
  return options.last_warehouse - from < options.chunk ? options.last_warehouse
                                                       : from + options.chunk - 1;
}

bool applicable(const condition& c, const check_options& options) {
  return !c.needs_population || options.population_delivered.has_value();
}

std::vector<condition_result> start_results(const check_options& options) {
  std::vector<condition_result> out;
  for (const condition& c : conditions()) {
    out.push_back(start_result(c));
    out.back().applicable = applicable(c, options);
  }
  return out;
}

// Indexes (into conditions()) of the conditions evaluated.
std::vector<std::size_t> plan(const check_options& options) {
  std::vector<std::size_t> out;
  const auto all = conditions();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (applicable(all[i], options)) out.push_back(i);
  }
  return out;
}

driver::call chunk_call(const condition& c, const check_options& options, std::int64_t from,
                        std::int64_t to) {
  driver::call out;
  out.stmt = c.stmt;
  out.params.emplace_back(from);
  out.params.emplace_back(to);
  out.params.emplace_back(static_cast<std::int64_t>(options.max_offenders));
  if (c.needs_population) out.params.emplace_back(options.population_delivered.value_or(0));
  return out;
}

std::vector<driver::call> chunk_calls(const std::vector<std::size_t>& planned,
                                      const check_options& options, std::int64_t from,
                                      std::int64_t to) {
  std::vector<driver::call> out;
  out.reserve(planned.size());
  for (const std::size_t i : planned) out.push_back(chunk_call(conditions()[i], options, from, to));
  return out;
}

std::vector<statement_result> failed_chunk(driver::outcome why) {
  std::vector<statement_result> out(1);
  out.front().status = std::move(why);
  return out;
}

// The first failure of a chunk; ok when every statement (and the commit) succeeded.
driver::outcome first_failure(const std::vector<statement_result>& results, std::size_t expected) {
  for (const statement_result& r : results) {
    if (!r.ok()) return r.status;
  }
  if (results.size() < expected) {
    return driver::outcome::make(driver::outcome_kind::failed, "",
                                 "the driver returned fewer results than statements");
  }
  return driver::outcome::success();
}

// A chunk to check: its calls (one per planned condition), where it lies, and per planned
// condition the time its statement took (summed over attempts).
struct chunk_work {
  std::vector<driver::call> calls;
  check_step step;  // `clause` and `condition` set per statement
  std::vector<std::chrono::nanoseconds> took;
};

// The statements one at a time, each timed and announced to `on_step`, then the commit; stops
// at the first failure. The results read as execute_batch's with then::commit would: one per
// statement run, then the commit's outcome.
shoal::task<std::vector<statement_result>> run_statements(
    driver::session& s, chunk_work& work, const std::vector<std::size_t>& planned,
    const std::function<void(const check_step&)>& on_step) {
  std::vector<statement_result> results;
  results.reserve(work.calls.size() + 1);
  for (std::size_t j = 0; j < work.calls.size(); ++j) {
    work.step.clause = conditions()[planned[j]].clause;
    work.step.condition = j + 1;
    if (on_step) on_step(work.step);
    const auto started = std::chrono::steady_clock::now();
    results.push_back(co_await s.execute(*work.calls[j].stmt, work.calls[j].params));
    work.took[j] += std::chrono::steady_clock::now() - started;
    if (!results.back().ok()) co_return results;
  }
  results.emplace_back().status = co_await s.commit();
  co_return results;
}

// One transaction: the chunk's statements and the commit.
shoal::task<std::vector<statement_result>> run_once(
    driver::database& db, chunk_work& work, const std::vector<std::size_t>& planned,
    const std::function<void(const check_step&)>& on_step) {
  driver::lease session = co_await db.acquire();
  if (!session) co_return failed_chunk(session.status());
  driver::outcome began = co_await session->begin();
  if (!began.ok()) co_return failed_chunk(std::move(began));
  std::vector<statement_result> results = co_await run_statements(*session, work, planned, on_step);
  const driver::outcome failure = first_failure(results, work.calls.size() + 1);
  if (!failure.ok()) co_await session->rollback();
  co_return results;
}

shoal::task<std::vector<statement_result>> run_chunk(
    driver::database& db, chunk_work& work, const std::vector<std::size_t>& planned,
    const std::function<void(const check_step&)>& on_step) {
  for (int attempt = 1;; ++attempt) {
    std::vector<statement_result> results = co_await run_once(db, work, planned, on_step);
    const driver::outcome failure = first_failure(results, work.calls.size() + 1);
    if (failure.kind != driver::outcome_kind::retryable || attempt == max_attempts) {
      co_return results;
    }
  }
}

chunk_work work_of(const std::vector<std::size_t>& planned, const check_options& options,
                   std::int64_t from, std::int64_t to) {
  chunk_work work;
  work.calls = chunk_calls(planned, options, from, to);
  work.step.conditions = planned.size();
  work.step.from = from;
  work.step.to = to;
  work.step.warehouses_done = from - options.first_warehouse;
  work.step.warehouses_total = options.last_warehouse - options.first_warehouse + 1;
  work.took.resize(planned.size());
  return work;
}

// Folds a chunk into the results; false (every planned condition marked) when it failed.
bool fold_all(std::vector<condition_result>& results, const std::vector<std::size_t>& planned,
              const std::vector<statement_result>& chunk, const chunk_work& work,
              const check_options& options) {
  const driver::outcome failure = first_failure(chunk, planned.size() + 1);
  for (std::size_t j = 0; j < planned.size(); ++j) {
    const std::size_t i = planned[j];
    results[i].duration += work.took[j];
    if (!failure.ok()) {
      fail_with(results[i], failure);
    } else {
      fold_chunk(results[i], conditions()[i], chunk[j], options.max_offenders);
    }
  }
  return failure.ok();
}

}  // namespace

shoal::task<std::vector<condition_result>> check_consistency(
    driver::database& db, const check_options& options,
    std::function<void(std::int64_t warehouses_done)> progress,
    std::function<void(const check_step&)> step) {
  validate(options);
  std::vector<condition_result> results = start_results(options);
  const std::vector<std::size_t> planned = plan(options);
  for (std::int64_t from = options.first_warehouse;;) {
    const std::int64_t to = chunk_end(options, from);
    chunk_work work = work_of(planned, options, from, to);
    const std::vector<statement_result> chunk = co_await run_chunk(db, work, planned, step);
    if (!fold_all(results, planned, chunk, work, options)) break;
    if (progress) progress(to - options.first_warehouse + 1);
    if (to == options.last_warehouse) break;
    from = to + 1;
  }
  co_return results;
}

}  // namespace tpcc::check
