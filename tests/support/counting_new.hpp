// SPDX-License-Identifier: Apache-2.0
// counting_new.hpp: a test program's global operator new, counted.
//
// What: a test program that compiles support/counting_new.cpp has its global operator new and
// delete replaced by malloc and free, and every allocation counted in `allocations`, so a test
// can assert that a steady-state path allocates nothing. ThreadSanitizer's runtime defines
// operator new itself (a second definition fails to link): there nothing is replaced,
// SHOAL_TEST_COUNTS_NEW is 0 and such tests skip.
// Thread-safety: the counter is atomic (relaxed: a count only, no ordering).
#pragma once

#include <atomic>
#include <cstdint>

#if defined(__SANITIZE_THREAD__)
#define SHOAL_TEST_COUNTS_NEW 0
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SHOAL_TEST_COUNTS_NEW 0
#endif
#endif
#ifndef SHOAL_TEST_COUNTS_NEW
#define SHOAL_TEST_COUNTS_NEW 1
#endif

namespace shoal::testing {

// Calls of the global operator new so far (0 forever when SHOAL_TEST_COUNTS_NEW is 0).
inline std::atomic<std::uint64_t> allocations{0};

}  // namespace shoal::testing
