// SPDX-License-Identifier: Apache-2.0
// The replaced global operator new behind failing_allocator.hpp (malloc underneath).
#include "support/failing_allocator.hpp"

#include <cstdlib>

namespace shoal::testing {
namespace {

// Plain thread-locals, constant-initialised: reading them never allocates.
constinit thread_local std::uint64_t countdown = 0;  // 0: disarmed; else allocations to go
constinit thread_local bool fail_every_later = false;
constinit thread_local bool injected = false;
constinit thread_local bool failing_from_now = false;
constinit thread_local std::uint64_t count = 0;

bool should_fail() noexcept {
  ++count;
  if (failing_from_now) return true;
  if (countdown == 0) return false;
  --countdown;
  if (countdown != 0) return false;
  injected = true;
  failing_from_now = fail_every_later;
  return true;
}

}  // namespace

void fail_nth_allocation(std::uint64_t n, bool and_every_later) noexcept {
  countdown = n;
  fail_every_later = and_every_later;
  failing_from_now = false;
  injected = false;
}

bool allocation_failure_injected() noexcept { return injected; }

std::uint64_t allocations_on_this_thread() noexcept { return count; }

allocations_allowed::allocations_allowed() noexcept
    : saved_countdown_(countdown), saved_every_(fail_every_later) {
  countdown = 0;
  failing_from_now = false;
}

allocations_allowed::~allocations_allowed() {
  countdown = saved_countdown_;
  fail_every_later = saved_every_;
}

}  // namespace shoal::testing

// g++ 12 at -O3 inlines these into new-expressions and then warns that free() meets a pointer
// from operator new: here operator new is malloc, so the pair matches.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(std::size_t size) {
  if (shoal::testing::should_fail()) throw std::bad_alloc();
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return ::operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t /*size*/) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t /*size*/) noexcept { std::free(p); }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
