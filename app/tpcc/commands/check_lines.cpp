// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/check_lines.cpp: the check's progress lines (see check_lines.hpp).
#include "commands/check_lines.hpp"

#include <cstdio>

namespace tpcc::commands {

void check_lines::step(const check::check_step& s) {
  if (!due()) return;
  std::fprintf(stderr,
               "check: condition %.*s (%zu of %zu) on warehouses %lld-%lld, %lld of %lld "
               "%s checked, %.1f s\n",
               static_cast<int>(s.clause.size()), s.clause.data(), s.condition, s.conditions,
               static_cast<long long>(s.from), static_cast<long long>(s.to),
               static_cast<long long>(s.warehouses_done),
               static_cast<long long>(s.warehouses_total), noun(), elapsed());
}

void check_lines::chunk_done(std::int64_t done) {
  if (!due() && done < total_) return;
  std::fprintf(stderr, "check: %lld of %lld %s checked, %.1f s\n", static_cast<long long>(done),
               static_cast<long long>(total_), noun(), elapsed());
}

bool check_lines::due() {
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::seconds(2)) return false;
  last_ = now;
  return true;
}

double check_lines::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

}  // namespace tpcc::commands
