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

// 0: not yet touched on this thread, 1: alive, 2: destroyed (thread exit). Trivially
// destructible, so it can be read while and after the cache itself is destroyed: frames freed
// that late go straight to the system.
thread_local int cache_state = 0;

class frame_cache {
 public:
  frame_cache() noexcept { cache_state = 1; }
  frame_cache(const frame_cache&) = delete;
  frame_cache& operator=(const frame_cache&) = delete;
  ~frame_cache() {
    cache_state = 2;
    for (size_class& c : classes_) {
      while (c.head != nullptr) ::operator delete(std::exchange(c.head, c.head->next));
    }
  }

  void* take(std::size_t index) noexcept {
    size_class& c = classes_[index];
    if (c.head == nullptr) return nullptr;
    --c.count;
    return std::exchange(c.head, c.head->next);
  }

  bool give(void* frame, std::size_t index) noexcept {
    size_class& c = classes_[index];
    if (c.count * class_bytes(index) >= frame_cache_bytes_per_class) return false;
    c.head = new (frame) free_block{c.head};
    ++c.count;
    return true;
  }

  static std::size_t class_bytes(std::size_t index) noexcept {
    return (index + 1) * frame_size_class_bytes;
  }

 private:
  std::array<size_class, frame_size_classes> classes_{};
};

thread_local frame_cache cache;
thread_local frame_allocator_stats stats;

frame_cache* this_thread_cache() noexcept {
  if (!SHOAL_FRAME_RECYCLING || cache_state == 2) return nullptr;
  return &cache;  // the first use on a thread constructs it
}

std::size_t class_index(std::size_t size) noexcept {
  return (size + frame_size_class_bytes - 1) / frame_size_class_bytes - 1;
}

}  // namespace

void* frame_allocate(std::size_t size) {
  ++stats.allocations;
  const std::size_t index = class_index(size);
  if (index >= frame_size_classes) {
    ++stats.system_allocations;
    return ::operator new(size);
  }
  if (frame_cache* c = this_thread_cache()) {
    if (void* frame = c->take(index)) return frame;
  }
  // Always the whole class: the block may be freed on a thread whose cache is alive and be
  // reused there for any frame of its class.
  ++stats.system_allocations;
  return ::operator new(frame_cache::class_bytes(index));
}

void frame_deallocate(void* frame, std::size_t size) noexcept {
  const std::size_t index = class_index(size);
  if (index < frame_size_classes) {
    frame_cache* c = this_thread_cache();
    if (c != nullptr && c->give(frame, index)) return;
  }
  ::operator delete(frame);
}

bool frame_recycling_enabled() noexcept { return SHOAL_FRAME_RECYCLING != 0; }

frame_allocator_stats this_thread_frame_stats() noexcept { return stats; }

}  // namespace shoal
