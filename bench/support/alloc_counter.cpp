// SPDX-License-Identifier: Apache-2.0
// Replaces the global operator new/delete of a benchmark program with counting versions
// (see alloc_counter.hpp). Memory comes from malloc / aligned_alloc; only the count is added.
// The libstdc++ forms not replaced here (array, nothrow) forward to these.
//
// Sanitizer runtimes bring their own operator new (TSan's cannot even be replaced), so sanitizer
// builds keep it and count nothing: their numbers would mean nothing anyway.
#include "support/alloc_counter.hpp"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SHOAL_BENCH_COUNT_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define SHOAL_BENCH_COUNT_ALLOCATIONS 0
#endif
#endif
#ifndef SHOAL_BENCH_COUNT_ALLOCATIONS
#define SHOAL_BENCH_COUNT_ALLOCATIONS 1
#endif

namespace shoal::bench {
namespace {

// One counter per cache line; threads are spread over them round-robin.
struct alignas(64) shard {
  std::atomic<std::uint64_t> count{0};
};
constexpr std::size_t shard_count = 64;
std::array<shard, shard_count> shards;

}  // namespace

bool allocation_counting_enabled() noexcept { return SHOAL_BENCH_COUNT_ALLOCATIONS != 0; }

std::uint64_t allocation_count() noexcept {
  std::uint64_t total = 0;
  for (const shard& s : shards) total += s.count.load(std::memory_order_relaxed);
  return total;
}

}  // namespace shoal::bench

#if SHOAL_BENCH_COUNT_ALLOCATIONS

namespace {

std::atomic<std::size_t> next_shard{0};

void count_one() noexcept {
  using shoal::bench::shard_count;
  thread_local shoal::bench::shard& mine =
      shoal::bench::shards[next_shard.fetch_add(1, std::memory_order_relaxed) % shard_count];
  // relaxed: a plain statistic; readers synchronise with the counting threads by other means.
  mine.count.fetch_add(1, std::memory_order_relaxed);
}

// The standard's loop: retry through the new-handler until it gives up.
template <class Allocate>
void* allocate_or_throw(Allocate allocate) {
  count_one();
  for (;;) {
    if (void* p = allocate()) return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

}  // namespace

void* operator new(std::size_t size) {
  return allocate_or_throw([size] { return std::malloc(size == 0 ? 1 : size); });
}

void* operator new(std::size_t size, std::align_val_t alignment) {
  const auto align = static_cast<std::size_t>(alignment);
  const std::size_t rounded = ((size == 0 ? 1 : size) + align - 1) / align * align;  // a multiple
  return allocate_or_throw([rounded, align] { return std::aligned_alloc(align, rounded); });
}

void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

#endif  // SHOAL_BENCH_COUNT_ALLOCATIONS
