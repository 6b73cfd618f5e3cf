// SPDX-License-Identifier: Apache-2.0
// The consistency report (print.hpp).
#include "check/print.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdio>

namespace tpcc::check {
namespace {

constexpr std::size_t clause_width = 10;  // "3.3.2.12" and two spaces
constexpr std::size_t title_width = 62;   // the title and its dots
constexpr std::string_view indent = "    ";

// ", 12.3 ms" or ", 4.56 s": the time its statement took; "" when it did not run.
std::string took(const condition_result& r) {
  const double seconds = std::chrono::duration<double>(r.duration).count();
  if (seconds <= 0) return {};
  std::array<char, 32> text{};
  if (seconds < 1) {
    std::snprintf(text.data(), text.size(), ", %.1f ms", seconds * 1000);
  } else {
    std::snprintf(text.data(), text.size(), ", %.2f s", seconds);
  }
  return text.data();
}

std::string verdict(const condition_result& r) {
  if (!r.applicable) return "N/A";
  if (!r.error.empty()) return "ERROR: " + r.error;
  if (r.passed) return "PASS (" + std::to_string(r.checked) + " checked" + took(r) + ")";
  return "FAIL (" + std::to_string(r.offending) + " of " + std::to_string(r.checked) + took(r) +
         ")";
}

std::string headline(const condition_result& r) {
  std::string line(r.clause);
  line.append(clause_width - std::min(clause_width - 1, line.size()), ' ');
  line += r.title;
  line += ' ';
  const std::size_t used = line.size() - clause_width;
  line.append(used < title_width ? title_width - used : 3, '.');
  line += ' ';
  line += verdict(r);
  line += '\n';
  return line;
}

std::string offender_lines(const condition_result& r) {
  std::string out;
  for (const std::string& o : r.offenders) {
    out += indent;
    out += o;
    out += '\n';
  }
  const auto listed = static_cast<std::int64_t>(r.offenders.size());
  if (r.offending > listed) {
    out += indent;
    out += "... and " + std::to_string(r.offending - listed) + " more\n";
  }
  return out;
}

}  // namespace

std::string format_results(const std::vector<condition_result>& results) {
  std::string out;
  for (const condition_result& r : results) {
    out += headline(r);
    if (r.applicable && r.error.empty() && !r.passed) out += offender_lines(r);
  }
  return out;
}

bool all_passed(const std::vector<condition_result>& results) {
  return std::all_of(results.begin(), results.end(), [](const condition_result& r) {
    return !r.applicable || (r.passed && r.error.empty());
  });
}

}  // namespace tpcc::check
