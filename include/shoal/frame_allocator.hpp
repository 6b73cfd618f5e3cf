// shoal/frame_allocator.hpp: where shoal's coroutine frames come from.
//
// What: a thread-local, size-class recycling allocator. Every shoal coroutine frame (task,
// roots, fibers later) is allocated with `frame_allocate` and returned with `frame_deallocate`.
// A freed frame goes onto the freeing thread's free list for its size class (64-byte classes up
// to 2 KiB) and the next frame of that class on that thread reuses it: in steady state an await
// of a child task costs no call to the system allocator. Larger frames go to ::operator new.
//
// Alignment: frames are aligned to __STDCPP_DEFAULT_NEW_ALIGNMENT__ (16 bytes) unless the frame
// needs more. A promise aligned beyond that (a task whose result type is over-aligned) is
// honoured on every compiler: the promise's operator new knows its alignment. A local aligned
// beyond it is honoured by clang at any optimisation level when compiled with
// -fcoro-aligned-allocation (shoal's CMake target adds it, with SHOAL_CORO_ALIGNED_ALLOCATION=1,
// to every clang consumer; pkg-config users add both themselves), because clang then passes the
// frame's own alignment to the promise. g++ 12 passes none (GCC bug 104177): a local aligned
// beyond 16 bytes in a shoal coroutine built by g++ may be misaligned; heap-allocate it there.
// Over-aligned frames bypass the size-class cache (each is a ::operator new(size, align_val_t));
// ordinary frames pay no byte and no branch for any of this.
//
// Lifetime: each thread's cache holds at most `frame_cache_bytes_per_class` bytes per class
// (the frames gathering into a batch for the depot included; this_thread_frame_stats() reports
// it) and is returned to the system when the thread exits. A frame freed on another thread than
// the one that allocated it joins the freeing thread's cache; once that cache is full, frames
// move in batches of 64 to a shared depot (at most 4 MiB per class), from which a thread whose
// cache is empty takes a batch before it asks the system: a thread that posts work to a pool
// gets back, in steady state, the frames the workers free.
//
// Thread-safety: the per-thread caches share nothing; the depot is a spin-locked stack of
// batches per class, touched once per 64 frames. AddressSanitizer
// builds of shoal pass every request straight to the system allocator so use-after-free stays
// visible.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <new>

namespace shoal {

inline constexpr std::size_t frame_size_class_bytes = 64;
inline constexpr std::size_t frame_size_classes = 32;  // up to 2 KiB
inline constexpr std::size_t frame_cache_bytes_per_class = std::size_t{256} * 1024;

// Counters of this thread's allocator, for tests and benchmarks.
struct frame_allocator_stats {
  std::uint64_t allocations = 0;         // frame_allocate calls
  std::uint64_t system_allocations = 0;  // of which served by ::operator new
  // Bytes of freed frames this thread's cache holds now, per class (index i: frames of up to
  // (i + 1) * frame_size_class_bytes), each at most frame_cache_bytes_per_class.
  std::array<std::size_t, frame_size_classes> cached_bytes{};
};

// Returns at least `size` bytes, aligned to __STDCPP_DEFAULT_NEW_ALIGNMENT__. Throws
// std::bad_alloc like ::operator new.
// Not inline, on purpose: code running on a stackful fiber (shoal/fiber.hpp) may be suspended
// inside one function and resumed on another thread, and a compiler may keep the address of a
// thread-local it computed before the suspension; an inlined cache access would then use the
// first thread's cache from the second (a data race, found by TSan with the fast path inlined).
// A call computes the address afresh; its fast path is a few instructions (frame_allocator.cpp).
[[nodiscard]] void* frame_allocate(std::size_t size);

// Returns memory from frame_allocate; `size` must be the size that was requested. Not inline,
// for the same reason.
void frame_deallocate(void* frame, std::size_t size) noexcept;

// Returns at least `size` bytes aligned to `alignment` (a power of two). An alignment up to
// __STDCPP_DEFAULT_NEW_ALIGNMENT__ is frame_allocate(size); a larger one goes to the system
// allocator, uncached. Throws std::bad_alloc like ::operator new.
[[nodiscard]] void* frame_allocate(std::size_t size, std::align_val_t alignment);

// Returns memory from frame_allocate(size, alignment), with the same size and alignment.
void frame_deallocate(void* frame, std::size_t size, std::align_val_t alignment) noexcept;

// False in AddressSanitizer builds of shoal, where every frame goes to the system allocator.
[[nodiscard]] bool frame_recycling_enabled() noexcept;

// Counters of this thread's allocator (frame_allocator_stats, above), for tests and benchmarks.
[[nodiscard]] frame_allocator_stats this_thread_frame_stats() noexcept;

}  // namespace shoal
