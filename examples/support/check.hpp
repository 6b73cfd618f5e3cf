// SPDX-License-Identifier: Apache-2.0
// examples/support/check.hpp: the one helper every example shares.
//
// check(ok, what) prints "  [ok] what" or "  [FAILED] what" and counts the failures;
// finish(name) prints "<name>: all checks passed" (what ctest looks for) or how many failed,
// and returns main's exit status (0 or 1). Thread-safety: check() from any thread; finish()
// once, from main, after every check.
#pragma once

#include <atomic>
#include <cstdio>

namespace examples {

inline std::atomic<int> failures{0};

inline void check(bool ok, const char* what) {
  std::printf("  [%s] %s\n", ok ? "ok" : "FAILED", what);
  if (!ok) failures.fetch_add(1, std::memory_order_relaxed);  // read by finish() after joins
}

inline int finish(const char* name) {
  const int failed = failures.load(std::memory_order_relaxed);
  if (failed != 0) {
    std::printf("%s: %d check(s) FAILED\n", name, failed);
    return 1;
  }
  std::printf("%s: all checks passed\n", name);
  return 0;
}

}  // namespace examples
