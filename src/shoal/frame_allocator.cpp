// SPDX-License-Identifier: Apache-2.0
// The thread-local size-class cache behind shoal/frame_allocator.hpp.
#include "shoal/frame_allocator.hpp"

#include <array>
#include <cstddef>
#include <new>
#include <utility>

#include "frame_cache.hpp"
#include "shoal/detail/spin_lock.hpp"
#include "shoal/detail/thread_annotations.hpp"

// Under AddressSanitizer every frame goes to the system allocator, so a use after free of a
// coroutine frame is reported instead of hidden by recycling.
#if defined(__SANITIZE_ADDRESS__)
#define SHOAL_FRAME_RECYCLING 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SHOAL_FRAME_RECYCLING 0
#endif
#endif
#ifndef SHOAL_FRAME_RECYCLING
#define SHOAL_FRAME_RECYCLING 1
#endif

namespace shoal {
namespace {

using detail::frame_class_bytes;
using detail::frame_class_index;
using free_block = detail::frame_free_block;
using size_class = detail::frame_size_class;

constexpr std::size_t batch_frames = detail::frame_batch_frames;
// The depot keeps at most this many bytes of each class; beyond, batches go back to the system.
constexpr std::size_t depot_bytes_per_class = std::size_t{4} * 1024 * 1024;
constexpr std::size_t depot_batches(std::size_t index) noexcept {
  return depot_bytes_per_class / (batch_frames * frame_class_bytes(index));
}

void free_chain(free_block* block) noexcept {
  while (block != nullptr) ::operator delete(std::exchange(block, block->next));
}

// The depot: per class, a stack of full batches that any thread may push or take. A thread that
// frees more frames than its cache keeps (a worker running work posted from elsewhere) pushes
// them here in batches; a thread whose cache is empty (the thread posting that work) takes a
// batch before it asks the system. One spin-lock acquisition per batch of 64 frames.
// Its frames are never returned at exit: they stay reachable from this global (not a leak).
struct depot_class {
  detail::spin_lock lock;
  free_block* batches SHOAL_GUARDED_BY(lock) = nullptr;
  std::size_t count SHOAL_GUARDED_BY(lock) = 0;
};
constinit std::array<depot_class, frame_size_classes> depot{};

void depot_push(std::size_t index, free_block* batch) noexcept {
  {
    depot_class& d = depot[index];
    const detail::spin_lock::guard hold(d.lock);
    if (d.count < depot_batches(index)) {
      batch->next_batch = d.batches;
      d.batches = batch;
      ++d.count;
      return;
    }
  }
  free_chain(batch);
}

// A batch of batch_frames frames, or nullptr.
free_block* depot_take(std::size_t index) noexcept {
  depot_class& d = depot[index];
  const detail::spin_lock::guard hold(d.lock);
  free_block* batch = d.batches;
  if (batch != nullptr) {
    d.batches = batch->next_batch;
    --d.count;
  }
  return batch;
}

// The cache is plain constant-initialised thread-local data, so the hot path reads it with no
// thread-local guard or init call; the frames it holds are given back at thread exit by `reaper`,
// whose construction (it has a destructor) is paid once per thread, on the first slow path.
// State 0: the reaper is not yet constructed on this thread, 1: alive, 2: destroyed (thread
// exit): frames freed that late go straight to the system.
struct cache_reaper {
  cache_reaper() noexcept {
    for (std::size_t i = 0; i < frame_size_classes; ++i) {
      detail::frame_cache.classes[i].room = detail::frame_class_limits[i];  // the lists are empty
    }
    detail::frame_cache.state = 1;
  }
  cache_reaper(const cache_reaper&) = delete;
  cache_reaper& operator=(const cache_reaper&) = delete;
  ~cache_reaper() {
    detail::frame_cache.state = 2;
    for (size_class& c : detail::frame_cache.classes) {
      free_chain(std::exchange(c.head, nullptr));
      free_chain(std::exchange(c.spill, nullptr));
      c.room = 0;  // frees from now on go to the system (state 2)
      c.spilled = 0;
    }
  }
};
thread_local cache_reaper reaper;

// True when this thread's cache may keep frames (constructing its reaper on first use).
bool cache_alive() noexcept {
  if (!SHOAL_FRAME_RECYCLING) return false;
  if (detail::frame_cache.state == 0) (void)&reaper;  // odr-use: constructs it, sets the state
  return detail::frame_cache.state == 1;
}

// The cache of class `index` is full: `frame` joins the spill, which goes to the depot once it
// makes a batch.
void spill(size_class& c, std::size_t index, void* frame) noexcept {
  c.spill = new (frame) free_block{c.spill, nullptr};
  if (++c.spilled < batch_frames) return;
  depot_push(index, std::exchange(c.spill, nullptr));
  c.spilled = 0;
}

// The cache of class `index` is empty: takes this thread's spill, else a batch from the depot.
// True when `c.head` now holds frames.
bool refill(size_class& c, std::size_t index) noexcept {
  if (c.spill != nullptr) {
    c.head = std::exchange(c.spill, nullptr);
    c.room = detail::frame_class_limits[index] - std::exchange(c.spilled, 0);
    return true;
  }
  if (!cache_alive()) return false;  // recycling off, or this thread is exiting
  free_block* batch = depot_take(index);
  if (batch == nullptr) return false;
  c.head = batch;
  c.room = detail::frame_class_limits[index] - batch_frames;
  return true;
}

}  // namespace

// The fast paths: a frame of a cached class taken from, or given back to, this thread's list
// (detail::frame_allocate_in_class, detail::frame_deallocate_in_class); the slow paths are
// functions of their own (cold), so these need no stack frame.
void* frame_allocate(std::size_t size) {
  const std::size_t index = frame_class_index(size);
  if (index < frame_size_classes) return detail::frame_allocate_in_class(index);
  ++detail::frame_cache.stats.allocations;
  return detail::frame_allocate_slow(size);
}

void frame_deallocate(void* frame, std::size_t size) noexcept {
  const std::size_t index = frame_class_index(size);
  if (index < frame_size_classes) {
    detail::frame_deallocate_in_class(frame, index);
  } else {
    detail::frame_deallocate_slow(frame, size);
  }
}

namespace detail {

void* frame_allocate_in_class(std::size_t index) {
  ++frame_cache.stats.allocations;
  size_class& c = frame_cache.classes[index];
  if (free_block* frame = c.head) {
    c.head = frame->next;
    ++c.room;
    // A frame recycled from another thread (through the depot) is a cache miss: start the
    // next one's header and promise now, while this one is being filled (a hint; it may be
    // null, and a prefetch never faults).
    __builtin_prefetch(c.head, 1);
    return frame;
  }
  return frame_allocate_slow(frame_class_bytes(index));
}

void frame_deallocate_in_class(void* frame, std::size_t index) noexcept {
  size_class& c = frame_cache.classes[index];
  if (c.room != 0) {  // 0 as well when the cache is not alive: no test of its state here
    auto* block = new (frame) free_block;  // next_batch: set only when a batch enters the depot
    block->next = c.head;
    c.head = block;
    --c.room;
    return;
  }
  frame_deallocate_slow(frame, frame_class_bytes(index));
}

}  // namespace detail

namespace detail {

constinit thread_local frame_thread_cache frame_cache SHOAL_FRAME_CACHE_TLS_MODEL{};

// frame_allocate's way when this thread's list of the class is empty (or the frame is too big):
// the class's spill, else a batch from the depot, else the system.
[[gnu::cold, gnu::noinline]] void* frame_allocate_slow(std::size_t size) {
  const std::size_t index = frame_class_index(size);
  if (index < frame_size_classes) {
    size_class& c = frame_cache.classes[index];  // empty unless this thread's cache is alive
    if (refill(c, index)) {
      ++c.room;
      return std::exchange(c.head, c.head->next);
    }
    // Always the whole class: the block may be freed on a thread whose cache is alive and be
    // reused there for any frame of its class.
    size = frame_class_bytes(index);
  }
  ++frame_cache.stats.system_allocations;
  return ::operator new(size);
}

// frame_deallocate's way when this thread's cache is not set up yet (it is set up here), when
// the class's list is full (the frame joins the spill), or when the thread is exiting or the
// frame is too big (the system).
[[gnu::cold, gnu::noinline]] void frame_deallocate_slow(void* frame, std::size_t size) noexcept {
  const std::size_t index = frame_class_index(size);
  if (index < frame_size_classes && (frame_cache.state == 1 || cache_alive())) {
    size_class& c = frame_cache.classes[index];
    if (c.room != 0) {
      c.head = new (frame) free_block{c.head, nullptr};
      --c.room;
      return;
    }
    spill(c, index, frame);
    return;
  }
  ::operator delete(frame);
}

}  // namespace detail

void* frame_allocate(std::size_t size, std::align_val_t alignment) {
  if (static_cast<std::size_t>(alignment) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
    return frame_allocate(size);
  }
  ++detail::frame_cache.stats.allocations;
  ++detail::frame_cache.stats.system_allocations;
  return ::operator new(size, alignment);
}

void frame_deallocate(void* frame, std::size_t size, std::align_val_t alignment) noexcept {
  if (static_cast<std::size_t>(alignment) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
    frame_deallocate(frame, size);
  } else {
    ::operator delete(frame, size, alignment);
  }
}

bool frame_recycling_enabled() noexcept { return SHOAL_FRAME_RECYCLING != 0; }

frame_allocator_stats this_thread_frame_stats() noexcept {
  frame_allocator_stats now = detail::frame_cache.stats;
  for (std::size_t i = 0; i < frame_size_classes; ++i) {
    const size_class& c = detail::frame_cache.classes[i];
    const std::size_t listed =
        detail::frame_cache.state == 1 ? detail::frame_class_limits[i] - c.room : 0;
    now.cached_bytes[i] = (listed + c.spilled) * frame_class_bytes(i);
  }
  return now;
}

}  // namespace shoal
