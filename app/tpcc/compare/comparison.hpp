// SPDX-License-Identifier: Apache-2.0
// app/tpcc/compare/comparison.hpp: two results side by side: what differs in how they were
// obtained, and each figure's change with whether it is beyond noise.
//
// What: compare() sets result B against result A (the base): first the configuration
// differences (config_diff.hpp), then one row per figure: tpmC, tpmTotal, and per transaction
// type its throughput (completed per minute) and its response time's p50, p90 and p99, each
// with both runs' values and intervals (estimate.hpp), the difference (absolute and in % of
// A's) and a judgement: no difference beyond noise when the two intervals overlap, else
// faster or slower (more throughput is faster, a longer response time slower). gate() is
// --fail-if-slower PCT's rule: the rows where B is slower beyond noise by more than PCT % of
// A's value, counting only tpmC, each type's p90 and QphH. When either ran CH-benCHmark's
// analytic streams, QphH after tpmTotal and each query's rate, p50 and p90 after the types
// (ch_rows.hpp). Then, when both ran the same --schedule,
// each step's achieved tpmTotal, backlog and worst p90 side by side (steps.hpp); when either
// measured tpmC with analytic streams against without, both ratios (ch_effect.hpp).
// Definitions: docs/tpcc/compare.md. Thread-safety: pure functions over plain values.
#pragma once

#include <string>
#include <vector>

#include "compare/ch_effect.hpp"
#include "compare/config_diff.hpp"
#include "compare/estimate.hpp"
#include "compare/steps.hpp"
#include "report/json.hpp"

namespace tpcc::compare {

enum class change { none, faster, slower, unknown };

// "no difference beyond noise", "faster beyond noise", "slower beyond noise", "not measured".
[[nodiscard]] const char* describe(change c) noexcept;

struct row {
  std::string figure;  // "tpmC", "tpmTotal", "New-Order tpm", "New-Order p90", "QphH", "Q5 p90"
  std::string unit;    // "tpm", "qph" (queries per hour) or "ms"
  bool gated = false;  // counted by --fail-if-slower: tpmC, each type's p90, QphH
  bool higher_is_better = true;
  estimate a, b;
  double difference = 0;  // b - a
  double percent = 0;     // of a; 0 when a is 0
  change judged = change::unknown;
};

struct comparison {
  std::string file_a, file_b;
  std::vector<config_difference> config;
  std::vector<row> rows;
  step_comparison steps;           // --schedule: each step's tpmTotal, backlog and p90 (steps.hpp)
  ch_effect_comparison ch_effect;  // tpmC with streams against without (ch_effect.hpp)
};

/// B against A (see above). `file_a` and `file_b` name them in every output.
[[nodiscard]] comparison compare(const report::loaded_result& a, const std::string& file_a,
                                 const report::loaded_result& b, const std::string& file_b);

/// --fail-if-slower PCT: the gated rows of `c` (tpmC, each type's p90, QphH) judged slower
/// beyond noise whose change is more than `percent` % of A's value (B's tpmC or QphH below A's
/// x (1 - PCT/100), or a type's p90 above A's x (1 + PCT/100)), in row order.
[[nodiscard]] std::vector<const row*> gate(const comparison& c, double percent);

/// The rows of `c` judged faster or slower beyond noise, in row order.
[[nodiscard]] std::vector<const row*> beyond_noise(const comparison& c);

}  // namespace tpcc::compare
