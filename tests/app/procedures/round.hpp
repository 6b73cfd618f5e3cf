// SPDX-License-Identifier: Apache-2.0
// tests/app/procedures/round.hpp: what both engines' --procedures tests assert the same way.
//
// expect_same_answers: 200 transactions drawn from seed 11 over warehouses 1 and 2
// (equivalence.hpp) run client-side on `client_db` and as procedure calls on `procedures_db`
// (copies of one load): every transaction's line equal, every table's digest equal, and the
// lines going through every path (expect_every_path).
// expect_every_path: the keyed sequence's lines (equivalence.hpp) went through every path the
// comparison is meant to cover: commits of each type, the spec's rollback, a refused Payment and
// Order-Status (no customer of that name), remote lines, delivered and skipped districts.
// expect_binary_round: the binary on a loaded database without the procedures: run --procedures
// refused with exit 2 naming the missing routine and `init --procedures`; init --procedures
// twice (idempotent); a 2 s run on `run_db` (the same database, maybe another protocol) whose
// JSON says mode "procedures" and counts commits and no failure; check passing; clean.
// Thread-safety: the test's thread.
#pragma once

#include <string>
#include <vector>

#include "driver/target.hpp"
#include "equivalence.hpp"

namespace procedures_test {

void expect_same_answers(const std::string& client_db, const std::string& procedures_db,
                         tpcc::driver::engine kind);
void expect_every_path(const std::vector<std::string>& lines);
// Both Payments of `paid` retried twice and ended retryable with `sqlstate`.
void expect_retried(const retried_payments& paid, const std::string& sqlstate);
void expect_binary_round(const std::string& db, const std::string& run_db);

}  // namespace procedures_test
