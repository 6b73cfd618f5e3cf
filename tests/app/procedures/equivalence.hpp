// SPDX-License-Identifier: Apache-2.0
// tests/app/procedures/equivalence.hpp: one fixed sequence of transactions run client-side on
// one database and as stored-procedure calls on a copy of it, and what is compared afterwards.
//
// What: second_warehouse_sql() makes a loaded warehouse 1 a pair for remote lines and Payments;
// draw_sequence(seed, n, warehouses) keys n transactions of warehouse 1 (the 45/43/4/4/4 mix drawn
// from the seed, plus one New-Order with an unused item, the spec's rollback, and one Payment
// and one Order-Status by a last name no customer has); run_sequence runs them one after another
// on a database, with txn::run_* (client-side) or txn::call_* (--procedures), and renders each
// transaction's outcome and output as one line (the client's dates left out: they are the
// client's clock, not the database's); table_digests renders every table as its row count and a
// digest of its rows (the transactions' dates as null or not). Equal lines and equal digests:
// the same rows read and written, the same answers.
// Thread-safety: coroutines on the caller's executor; one database at a time.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "driver/database.hpp"
#include "driver/target.hpp"
#include "shoal/task.hpp"
#include "txn/delivery.hpp"
#include "txn/execute.hpp"
#include "txn/inputs.hpp"

namespace procedures_test {

using keyed = std::variant<tpcc::txn::new_order_input, tpcc::txn::payment_input,
                           tpcc::txn::order_status_input, tpcc::txn::delivery_input,
                           tpcc::txn::stock_level_input>;

// SQL copying warehouse 1's WAREHOUSE, DISTRICT, CUSTOMER and STOCK rows as warehouse 2: what
// remote order lines and remote Payments need (no orders: `check` is not run on such a copy).
[[nodiscard]] std::string second_warehouse_sql();

[[nodiscard]] std::vector<keyed> draw_sequence(std::uint64_t seed, int count,
                                               std::int64_t warehouses);

shoal::task<std::vector<std::string>> run_sequence(tpcc::driver::database& db,
                                                   const std::vector<keyed>& inputs,
                                                   bool procedures);

// What the two runs gave: one line per transaction, one line per table.
struct both_runs {
  std::vector<std::string> client, procedures;               // per transaction
  std::vector<std::string> client_tables, procedure_tables;  // per table, after
};

// Creates the procedures on `procedures_db` (schema::create_procedures), runs `inputs`
// client-side on `client_db` and with procedures on `procedures_db`, then digests both. Blocks;
// throws std::runtime_error when a database cannot be opened or the procedures made.
[[nodiscard]] both_runs run_both(const std::string& client_db, const std::string& procedures_db,
                                 tpcc::driver::engine kind, const std::vector<keyed>& inputs);

// How one Payment ended through txn::execute (3 attempts, 1 ms back-offs), client-side and as
// a procedure call (the procedures made first), on `db`: for a database made to refuse it.
struct retried_payments {
  tpcc::txn::attempt_report client, procedures;
};
[[nodiscard]] retried_payments pay_with_retries(const std::string& db, tpcc::driver::engine kind);

// The statements a MySQL or MariaDB server counted (its session's Questions) for one client-side
// Delivery of warehouse 1 (carrier 7) on `db`, the statements reading them left out; `out` gets the
// Delivery's output. Blocks; throws std::runtime_error on a failure.
[[nodiscard]] std::int64_t delivery_statements(const std::string& db,
                                               tpcc::txn::delivery_output& out);

// "table: rows N, digest D" for the nine tables, in schema order (one statement carries both
// PostgreSQL's and MySQL's digest).
shoal::task<std::vector<std::string>> table_digests(tpcc::driver::database& db);

}  // namespace procedures_test
