// SPDX-License-Identifier: Apache-2.0
// tests/support/build_kind.hpp: how the test was built, for tests that must know it.
//
// What: under_sanitizer is true in an AddressSanitizer or ThreadSanitizer build (g++ defines
// __SANITIZE_*__, clang answers __has_feature); slow_build also in any build without NDEBUG.
// Tests that run a wall-clock workload scale it down in a slow build (the same code checked, the
// figures the release preset's); tests of what a sanitizer intercepts itself skip under one.
// Thread-safety: constants.
#pragma once

namespace shoal::testing {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool under_sanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool under_sanitizer = true;
#else
inline constexpr bool under_sanitizer = false;
#endif
#else
inline constexpr bool under_sanitizer = false;
#endif

#ifdef NDEBUG
inline constexpr bool slow_build = under_sanitizer;
#else
inline constexpr bool slow_build = true;
#endif

}  // namespace shoal::testing
