// SPDX-License-Identifier: Apache-2.0
// shoal/detail/frame_class.hpp: a coroutine frame's size class, computed where the frame is made.
//
// What: the compiler passes a coroutine's frame size to its promise's operator new as a constant,
// so the size class (shoal/frame_allocator.hpp: multiples of frame_size_class_bytes) is known
// where the frame is allocated. frame_allocate_sized and frame_deallocate_sized compute it there
// (it folds to a constant) and call the class's fast path, frame_allocate_in_class /
// frame_deallocate_in_class, which skip the size arithmetic and the range test that
// frame_allocate(size) makes on every call. The fast paths stay out of line, as frame_allocate's
// do (frame_allocator.hpp says why: a fiber may resume a function on another thread).
//
// Thread-safety: as frame_allocate: the calling thread's cache.
#pragma once

#include <cstddef>

#include "shoal/frame_allocator.hpp"

namespace shoal::detail {

// The size class of a frame of `size` bytes (0 for 1..64); frame_size_classes or more: uncached.
constexpr std::size_t frame_class_index(std::size_t size) noexcept {
  return (size + frame_size_class_bytes - 1) / frame_size_class_bytes - 1;
}

// frame_allocate for a frame of class `index` (< frame_size_classes). Throws std::bad_alloc.
[[nodiscard]] void* frame_allocate_in_class(std::size_t index);
// frame_deallocate for a frame of class `index` (< frame_size_classes).
void frame_deallocate_in_class(void* frame, std::size_t index) noexcept;

// frame_allocate(size), with the class computed here (a constant for a coroutine frame).
[[gnu::always_inline]] inline void* frame_allocate_sized(std::size_t size) {
  if (size != 0 && frame_class_index(size) < frame_size_classes) {
    return frame_allocate_in_class(frame_class_index(size));
  }
  return frame_allocate(size);
}
// frame_deallocate(frame, size), with the class computed here.
[[gnu::always_inline]] inline void frame_deallocate_sized(void* frame, std::size_t size) noexcept {
  if (size != 0 && frame_class_index(size) < frame_size_classes) {
    frame_deallocate_in_class(frame, frame_class_index(size));
  } else {
    frame_deallocate(frame, size);
  }
}

}  // namespace shoal::detail
