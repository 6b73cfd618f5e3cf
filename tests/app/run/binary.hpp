// SPDX-License-Identifier: Apache-2.0
// tests/app/run/binary.hpp: runs the shoal-tpcc binary as a user would, for the tests.
//
// What: run_binary(args) starts SHOAL_TPCC_BINARY with the arguments, its stdout and stderr
// going to files, and waits for it (at most `limit`; then it is killed and the result says
// so). With `interrupt_after`, `signal` (SIGINT: Ctrl-C, unless given) is sent after that long.
// Thread-safety: any thread; each call is independent.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace tpcc::testing {

struct binary_result {
  int exit_code = -1;  // -1 when killed by a signal or by the time limit
  bool timed_out = false;
  std::string out;
  std::string err;
};

binary_result run_binary(const std::vector<std::string>& args,
                         std::chrono::seconds limit = std::chrono::seconds(120),
                         std::optional<std::chrono::milliseconds> interrupt_after = std::nullopt,
                         int signal = 2 /* SIGINT */);

// The result as a failure message shows it: exit status, stdout, stderr.
[[nodiscard]] std::string describe(const binary_result& r);
// Whether `text` contains `part`.
[[nodiscard]] bool contains(const std::string& text, const std::string& part);

// Runs `args` and expects (gtest) a refusal before any work: exit 2, `says` on stderr, no
// result printed.
void expect_refused(const std::vector<std::string>& args, const std::string& says);

// `init` and `load --warehouses 1` on a new SQLite database in `file`; its --db target, and
// true in `ok` when both succeeded (a gtest failure says why when not).
[[nodiscard]] std::string one_warehouse_sqlite(const std::string& file, bool& ok);

}  // namespace tpcc::testing
