// SPDX-License-Identifier: Apache-2.0
// app/tpcc/loader/insert_rows.hpp: the loader's baseline write path, multi-row INSERTs.
//
// What: writes a bulk_rows with INSERT statements of up to 100 rows each
// (`INSERT INTO t (cols) VALUES ($1, ...), (...)`), all of one chunk sent as one execute_batch
// in the current transaction (so a pipelining driver sends them in one round trip). It exists
// to measure COPY against (app/tpcc/bench/load_bench.cpp, load_method::insert); the loader's
// default is session::copy. The statements are built once per (table, rows) and kept for the
// process's lifetime: drivers key prepared statements by the statement's address.
//
// Awaiting insert_rows:
//   Result: ok, or the first failed outcome (the transaction is then aborted: roll it back).
//   Errors: std::bad_alloc only.
//   Cancellation: the chain's stop token reaches the driver call (session.hpp).
//   Resumes on: the executor it was awaited on.
//   Thread-safety: the session's holder only; the statement cache is shared and locked.
#pragma once

#include <cstddef>

#include "driver/bulk.hpp"
#include "driver/outcome.hpp"
#include "driver/session.hpp"
#include "shoal/task.hpp"

namespace tpcc::loader {

inline constexpr std::size_t rows_per_insert = 100;

shoal::task<driver::outcome> insert_rows(driver::session& s, const driver::bulk_rows& rows);

}  // namespace tpcc::loader
