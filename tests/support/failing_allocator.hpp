// SPDX-License-Identifier: Apache-2.0
// failing_allocator.hpp: an allocation-failure injector for tests. Its .cpp replaces the global
// operator new of the whole program, so link shoal_failing_allocator into a test program of its
// own only (never the shared unit-test binary).
//
// What: counts the calls to operator new made by each thread and, once armed on a thread, makes
// the nth of them from then on (and, when asked, every later one) throw std::bad_alloc.
// Allocations of other threads are counted but never failed by this thread's arming.
// Thread-safety: each thread arms and reads only its own state.
#pragma once

#include <cstdint>
#include <exception>
#include <new>
#include <thread>

namespace shoal::testing {

// From now on, the nth allocation on this thread (1: the next one) throws std::bad_alloc, and,
// when `and_every_later` is set, so does every one after it. 0 disarms.
void fail_nth_allocation(std::uint64_t n, bool and_every_later = false) noexcept;
// Whether an armed failure has been injected on this thread since the last arming.
[[nodiscard]] bool allocation_failure_injected() noexcept;
// Calls to operator new on this thread so far.
[[nodiscard]] std::uint64_t allocations_on_this_thread() noexcept;

// Runs `op` with the nth allocation failing, for n = 1, 2, ..., until a run in which no failure
// was injected (op made fewer than n allocations): so every allocation op makes is failed once.
// Each run is on a thread of its own, so that the thread-local caches it fills (coroutine frames
// are recycled per thread) start empty and their allocations are failed too. `op` checks what it
// must (a clean std::bad_alloc, state as before, the work retried); an exception escaping it is
// rethrown here. Returns the number of runs with a failure; stops at `limit` runs.
template <class Op>
std::uint64_t sweep_allocation_failures(Op op, std::uint64_t limit = 100000) {
  for (std::uint64_t n = 1; n <= limit; ++n) {
    bool injected = false;
    std::exception_ptr escaped;
    std::thread run([&] {
      fail_nth_allocation(n);
      try {
        op(n);
      } catch (...) {
        escaped = std::current_exception();
      }
      injected = allocation_failure_injected();
      fail_nth_allocation(0);
    });
    run.join();
    if (escaped) std::rethrow_exception(escaped);
    if (!injected) return n - 1;
  }
  return limit;
}

// Disarms for its lifetime, for a test's own setup and checks inside an armed region; the
// countdown resumes where it was when it ends.
class allocations_allowed {
 public:
  allocations_allowed() noexcept;
  allocations_allowed(const allocations_allowed&) = delete;
  allocations_allowed& operator=(const allocations_allowed&) = delete;
  ~allocations_allowed();

 private:
  std::uint64_t saved_countdown_;
  bool saved_every_;
};

}  // namespace shoal::testing
