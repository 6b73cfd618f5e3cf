// SPDX-License-Identifier: Apache-2.0
// app/tpcc/check/check.hpp: the consistency conditions of clause 3.3.2 (3.3.2.1 to 3.3.2.12).
//
// What: `check_consistency` evaluates the twelve conditions over a range of warehouses, chunk by
// chunk, and returns one result per condition, in clause order. Each condition is one SQL
// statement per chunk that returns how many groups (warehouses, districts, customers, orders or
// order lines) it examined, how many break the condition, and the first few of those; so memory
// stays bounded whatever the number of warehouses. The statements run unchanged on PostgreSQL
// and SQLite. Money compares with a tolerance of half a cent (sums travel as double).
// A chunk's statements run in one transaction, at the database's isolation level: check a
// quiesced database, as clause 3.3.3 does after a run. They run one at a time (a round trip
// each, plus the commit), so that each is timed: condition_result::duration sums its
// statement's time over the chunks (docs/tpcc/design/tpcc-check.md weighs the cost).
// Condition 3.3.2.11 as written holds for the population of clause 4.3 (2100 delivered orders
// per district); after a run it is checked in the form that stays true, see
// docs/tpcc/design/tpcc-check.md.
//
// Lifetime: `db` and `options` must outlive the await (the coroutine keeps references).
//
// Awaiting check_consistency:
//   Result: twelve condition_result, clause order. A condition that could not be evaluated (the
//           database failed or was unreachable) has passed == false and `error` set; checking
//           stops at the first chunk that fails (serialization failures are retried first).
//   Errors: std::invalid_argument for options that make no sense (named in the message);
//           std::bad_alloc. Database failures are values (see Result), never exceptions.
//   Cancellation: the chain's stop token, through the driver: a cancelled chunk reports the
//                 driver's outcome as an error and checking stops.
//   Resumes on: the executor it was awaited on.
//   Thread-safety: the database may be shared; `progress` is called on the awaiting coroutine,
//                  after each chunk, with the number of warehouses done so far; `step` on it
//                  too, before each condition's statement, with where checking is.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "driver/database.hpp"
#include "shoal/task.hpp"

namespace tpcc::check {

struct condition_result {
  std::string_view clause;  // "3.3.2.1"
  std::string_view title;   // the relationship, e.g. "W_YTD = sum(D_YTD)"
  bool applicable = true;   // false: not evaluated (see check_options::population_delivered)
  bool passed = true;
  std::int64_t checked = 0;            // rows or groups examined
  std::int64_t offending = 0;          // of which break the condition
  std::vector<std::string> offenders;  // the first few (max_offenders), readable
  std::string error;  // why the condition could not be evaluated; empty when it was
  // The time its statement took (the driver call, round trip included), summed over chunks and
  // retried attempts; zero when it did not run.
  std::chrono::nanoseconds duration{0};
};

// Where checking is: the condition whose statement is about to run over a chunk.
struct check_step {
  std::string_view clause;            // "3.3.2.10"
  std::size_t condition = 0;          // 1-based, among the conditions evaluated
  std::size_t conditions = 0;         // conditions evaluated per chunk
  std::int64_t from = 0, to = 0;      // the chunk's warehouses
  std::int64_t warehouses_done = 0;   // before this chunk
  std::int64_t warehouses_total = 0;  // of the range checked
};

struct check_options {
  std::int64_t first_warehouse = 1;
  std::int64_t last_warehouse = 0;  // inclusive; must be >= first_warehouse
  std::int64_t chunk = 10;          // warehouses per query, >= 1
  std::size_t max_offenders = 5;    // per condition
  // Orders per district the initial population delivered: clause 4.3.3.1 loads 3000 orders of
  // which the last 900 are undelivered, so 2100. Condition 3.3.2.11 is not applicable when the
  // population is unknown (nullopt).
  std::optional<std::int64_t> population_delivered = 2100;
};

shoal::task<std::vector<condition_result>> check_consistency(
    driver::database& db, const check_options& options,
    std::function<void(std::int64_t warehouses_done)> progress = {},
    std::function<void(const check_step&)> step = {});

}  // namespace tpcc::check
