// SPDX-License-Identifier: Apache-2.0
// app/tpcc/schema/meta.hpp: what a load recorded in the database (tpcc_meta, tpcc_loaded).
//
// What: `load_meta` is the database's own account of its population: the warehouse count the
// load was started with, the NURand C constants it drew (clause 2.1.6; a run needs c_last to
// choose its own, clause 2.1.6.1), and which parts are fully committed (tpcc_loaded: w_id 0 is
// the ITEM table, 1..W the warehouses). `read_meta` reads it; `write_meta` records the
// warehouse count and the constants inside the caller's transaction.
// warehouses == 0 means nothing has been recorded yet (a schema fresh from `init`).
//
// Awaiting read_meta:
//   Result: the meta, or a failed outcome: "schema missing: run `shoal-tpcc init` first" when
//           the bookkeeping tables do not exist; the driver's outcome for anything else
//           (including a malformed value, reported as failed naming it).
//   Errors: std::bad_alloc only.
//   Cancellation: the chain's stop token reaches the driver calls.
//   Resumes on: the executor it was awaited on.
//   Thread-safety: any coroutine.
// Awaiting write_meta: Result: ok or the failed outcome of an insert (the caller rolls back).
//   Errors, Cancellation, Resumes on: as read_meta. Thread-safety: the session's holder only.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "driver/database.hpp"
#include "driver/outcome.hpp"
#include "driver/session.hpp"
#include "random/nurand.hpp"
#include "shoal/task.hpp"

namespace tpcc::schema {

struct load_meta {
  std::int64_t warehouses = 0;
  random::nurand_constants constants;
  std::vector<std::int64_t> loaded;  // w_ids in tpcc_loaded, ascending; 0 = items

  [[nodiscard]] bool is_loaded(std::int64_t w_id) const noexcept;
  // Why the data cannot be run or checked yet (not loaded, or a load broken off: the items
  // or some warehouses missing), with the command that finishes it; nullopt when complete.
  [[nodiscard]] std::optional<std::string> incomplete() const;
};

using meta_result = std::variant<load_meta, driver::outcome>;

// The rows of tpcc_meta that write_meta writes for `meta`: (name, value), in a fixed order.
[[nodiscard]] std::array<std::pair<std::string_view, std::int64_t>, 4> meta_entries(
    const load_meta& meta) noexcept;

// The message of the outcome read_meta gives when the schema is missing.
[[nodiscard]] const char* schema_missing_message() noexcept;

shoal::task<meta_result> read_meta(driver::database& db);
shoal::task<meta_result> read_meta(driver::session& s);
shoal::task<driver::outcome> write_meta(driver::session& s, const load_meta& meta);

}  // namespace tpcc::schema
