// SPDX-License-Identifier: Apache-2.0
// shoal/preheat.hpp: filling the frame caches before the first jobs (asynqro's preheating).
//
// What: the frame allocator (shoal/frame_allocator.hpp) serves a frame from the calling
// thread's cache, and asks the system only when that cache (and the shared depot) is empty: the
// first jobs of a fresh pool pay a malloc per frame. preheat_this_thread() allocates and frees
// `frames_per_class` frames of each size class up to `up_to_bytes` on the calling thread, so
// its cache holds them; preheat(pool) does the same on every worker of a started pool, and on
// the thread that awaits it (typically the one that will post work). Nothing needs preheating
// to be correct: it moves the first jobs' system allocations to a moment the caller chooses.
// In AddressSanitizer builds (frame_recycling_enabled() false) it does nothing.
//
// Awaiting preheat(pool, options):
//   Result: void, once every worker has filled its cache.
//   Errors: std::bad_alloc.
//   Cancellation: none (each worker's part takes microseconds).
//   Resumes on: the executor it was awaited on (it waits for the workers through futures).
//   Thread-safety: any coroutine, any number at once; the pool must be started.
//   Example: shoal::sync_wait(shoal::preheat(pool));  // then post the first burst
#pragma once

#include <cstddef>

#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"

namespace shoal {

struct preheat_options {
  std::size_t frames_per_class = 64;  // the cache keeps at most 256 KiB per class
  std::size_t up_to_bytes = 512;      // the size classes filled: 64, 128, ... up to this
};

// Fills the calling thread's frame cache. Errors: std::bad_alloc (the cache keeps what it got).
void preheat_this_thread(const preheat_options& options = {});

// Fills every worker's frame cache, then the awaiting thread's.
[[nodiscard]] task<void> preheat(thread_pool& pool, preheat_options options = {});

}  // namespace shoal
