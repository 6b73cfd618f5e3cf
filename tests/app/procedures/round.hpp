// SPDX-License-Identifier: Apache-2.0
// tests/app/procedures/round.hpp: what both engines' --procedures tests assert the same way.
//
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

namespace procedures_test {

void expect_every_path(const std::vector<std::string>& lines);
void expect_binary_round(const std::string& db, const std::string& run_db);

}  // namespace procedures_test
