// SPDX-License-Identifier: Apache-2.0
// frame_cache.hpp: the per-thread free lists behind shoal/frame_allocator.hpp (private to the
// library: only frame_allocator.cpp touches them, through calls, never inlined into a coroutine
// that a fiber may resume on another thread; see frame_allocator.hpp).
//
// What: one free list per 64-byte size class (`frame_classes`), with its count, and the spill
// that gathers frames once the class is full (frame_allocator.cpp moves whole batches of it to
// the shared depot); `state` says whether this thread's cache is usable (0: not yet
// set up, 1: alive, 2: the thread is exiting); the counters of frame_allocator_stats.
//
// Lifetime: the cache's frames are returned to the system by a reaper in frame_allocator.cpp
// when the thread exits.
// Thread-safety: each thread touches only its own.
#pragma once

#include <array>
#include <cstddef>

#include "shoal/detail/frame_class.hpp"
#include "shoal/frame_allocator.hpp"

namespace shoal::detail {

struct frame_free_block {
  frame_free_block* next;        // the next block of the same list (or batch)
  frame_free_block* next_batch;  // in the first block of a batch in the depot: the next batch
};
static_assert(sizeof(frame_free_block) <= frame_size_class_bytes);

// One class of one thread's cache: a list of at most frame_class_limits[index] free frames, and
// the spill where frames freed beyond that gather into a batch for the depot. Together they hold
// at most frame_cache_bytes_per_class bytes (see frame_class_limits).
// `room` is what the list may still take (its limit minus its length) while the thread's cache
// is alive, and 0 otherwise (not set up yet, or the thread is exiting), so a free tests one field.
struct frame_size_class {
  frame_free_block* head = nullptr;
  std::size_t room = 0;
  frame_free_block* spill = nullptr;
  std::size_t spilled = 0;
};

constexpr std::size_t frame_class_bytes(std::size_t index) noexcept {
  return (index + 1) * frame_size_class_bytes;
}
// Frames move between threads in batches of this many (one lock per batch).
inline constexpr std::size_t frame_batch_frames = 64;
// Frames a class's list may keep on this thread: frame_cache_bytes_per_class worth, the list and
// the spill together. The spill holds up to frame_batch_frames - 1 frames (at frame_batch_frames
// it goes to the depot), so the list stops that many short of the class's share (the spill
// used to come on top: 382 KiB for the 2 KiB class).
inline constexpr std::array<std::size_t, frame_size_classes> frame_class_limits = [] {
  std::array<std::size_t, frame_size_classes> limits{};
  for (std::size_t i = 0; i < frame_size_classes; ++i) {
    limits[i] = frame_cache_bytes_per_class / frame_class_bytes(i) - (frame_batch_frames - 1);
  }
  return limits;
}();
static_assert(frame_cache_bytes_per_class / frame_class_bytes(frame_size_classes - 1) >=
                  frame_batch_frames,
              "every class's share must hold a batch");

// This thread's cache and counters (frame_allocator.cpp), one thread-local object so that each
// fast path computes one thread-local address. Constant-initialised, trivially destructible: no
// thread-local guard on the fast path.
struct frame_thread_cache {
  std::array<frame_size_class, frame_size_classes> classes{};
  int state = 0;  // 0: not set up yet, 1: alive, 2: the thread is exiting
  frame_allocator_stats stats{};
};
#if SHOAL_FRAME_CACHE_INITIAL_EXEC
// Initial-exec (set by shoal's CMake when libshoal is a static library, linked into an
// executable): the cache at a fixed offset from the thread pointer, no TLS descriptor call.
#define SHOAL_FRAME_CACHE_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define SHOAL_FRAME_CACHE_TLS_MODEL
#endif
extern constinit thread_local frame_thread_cache frame_cache SHOAL_FRAME_CACHE_TLS_MODEL;

// The paths off the fast one: refill from the spill or the depot, or the system; set the cache
// up, spill, or free to the system.
[[nodiscard]] void* frame_allocate_slow(std::size_t size);
void frame_deallocate_slow(void* frame, std::size_t size) noexcept;

}  // namespace shoal::detail
