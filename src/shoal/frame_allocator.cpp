// The thread-local size-class cache behind shoal/frame_allocator.hpp.
#include "shoal/frame_allocator.hpp"

#include <array>
#include <new>
#include <utility>

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

struct free_block {
  free_block* next;
};

struct size_class {
  free_block* head = nullptr;
  std::size_t count = 0;
};

constexpr std::size_t class_bytes(std::size_t index) noexcept {
  return (index + 1) * frame_size_class_bytes;
}

// How many frames each class may keep: frame_cache_bytes_per_class worth.
constexpr std::array<std::size_t, frame_size_classes> class_limits = [] {
  std::array<std::size_t, frame_size_classes> limits{};
  for (std::size_t i = 0; i < frame_size_classes; ++i) {
    limits[i] = frame_cache_bytes_per_class / class_bytes(i);
  }
  return limits;
}();

// The cache is plain constant-initialised thread-local data, so the hot path reads it with no
// thread-local guard or init call; the frames it holds are given back at thread exit by `reaper`,
// whose construction (it has a destructor) is paid once per thread, on the first slow path.
// State 0: the reaper is not yet constructed on this thread, 1: alive, 2: destroyed (thread
// exit): frames freed that late go straight to the system.
constinit thread_local std::array<size_class, frame_size_classes> classes{};
constinit thread_local int cache_state = 0;

struct cache_reaper {
  cache_reaper() noexcept { cache_state = 1; }
  cache_reaper(const cache_reaper&) = delete;
  cache_reaper& operator=(const cache_reaper&) = delete;
  ~cache_reaper() {
    cache_state = 2;
    for (size_class& c : classes) {
      while (c.head != nullptr) ::operator delete(std::exchange(c.head, c.head->next));
      c.count = 0;
    }
  }
};
thread_local cache_reaper reaper;

// True when this thread's cache may keep frames (constructing its reaper on first use).
bool cache_alive() noexcept {
  if (!SHOAL_FRAME_RECYCLING) return false;
  if (cache_state == 0) (void)&reaper;  // odr-use: constructs it, which sets cache_state
  return cache_state == 1;
}

constinit thread_local frame_allocator_stats stats;

std::size_t class_index(std::size_t size) noexcept {
  return (size + frame_size_class_bytes - 1) / frame_size_class_bytes - 1;
}

}  // namespace

void* frame_allocate(std::size_t size) {
  ++stats.allocations;
  const std::size_t index = class_index(size);
  if (index < frame_size_classes) {
    size_class& c = classes[index];  // empty unless this thread's cache is alive
    if (c.head != nullptr) {
      --c.count;
      return std::exchange(c.head, c.head->next);
    }
    // Always the whole class: the block may be freed on a thread whose cache is alive and be
    // reused there for any frame of its class.
    size = class_bytes(index);
  }
  ++stats.system_allocations;
  return ::operator new(size);
}

void frame_deallocate(void* frame, std::size_t size) noexcept {
  const std::size_t index = class_index(size);
  if (index < frame_size_classes) {
    size_class& c = classes[index];
    if (c.count < class_limits[index] && (cache_state == 1 || cache_alive())) {
      c.head = new (frame) free_block{c.head};
      ++c.count;
      return;
    }
  }
  ::operator delete(frame);
}

void* frame_allocate(std::size_t size, std::align_val_t alignment) {
  if (static_cast<std::size_t>(alignment) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
    return frame_allocate(size);
  }
  ++stats.allocations;
  ++stats.system_allocations;
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

frame_allocator_stats this_thread_frame_stats() noexcept { return stats; }

}  // namespace shoal
