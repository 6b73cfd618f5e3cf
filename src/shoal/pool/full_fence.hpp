// SPDX-License-Identifier: Apache-2.0
// full_fence.hpp: the sequentially consistent fence of the pool's wake-up protocol.
//
// What: full_fence() is std::atomic_thread_fence(std::memory_order_seq_cst), issued on x86-64 as
// a locked read-modify-write of the top of the stack instead of the `mfence` compilers emit.
// Both are full barriers on x86 (a locked instruction orders every earlier load and store with
// every later one, which is all a seq_cst fence asks of the hardware there), but `mfence` also
// waits for weakly ordered stores and instruction fetch and costs several times more on AMD
// cores: on the 2-core EPYC of docs/benchmarks.md it was the largest cost of a post from outside
// the pool while the global queue overflowed (issue 30). Linux's smp_mb and crossbeam-epoch's
// full fence make the same choice. Under ThreadSanitizer, and on other architectures, it is the
// standard fence (TSan models that one).
//
// Thread-safety: a fence; pairs as std::atomic_thread_fence(seq_cst) pairs, so every fence of
// one protocol must be this one (pool_state::notify_work with worker::park).
#pragma once

#include <atomic>

namespace shoal::detail {

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SHOAL_FULL_FENCE_STANDARD 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || !defined(__x86_64__)
#define SHOAL_FULL_FENCE_STANDARD 1
#endif

inline void full_fence() noexcept {
#if defined(SHOAL_FULL_FENCE_STANDARD)
  std::atomic_thread_fence(std::memory_order_seq_cst);
#else
  // "memory": the compiler moves no load or store across it either.
  asm volatile("lock orl $0, (%%rsp)" ::: "memory", "cc");
#endif
}

}  // namespace shoal::detail
