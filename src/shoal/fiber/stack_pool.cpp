// SPDX-License-Identifier: Apache-2.0
// The fiber stack pool (stack_pool.hpp) and its public counters (shoal/fiber.hpp).
#include "fiber/stack_pool.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <new>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "shoal/detail/fiber_sanitizers.hpp"
#include "shoal/detail/mutex.hpp"
#include "shoal/fiber.hpp"

namespace shoal {
namespace detail {
namespace {

constexpr std::size_t thread_cache_stacks = 16;

std::atomic<std::size_t> live_stacks{0};
std::atomic<std::size_t> pooled_stacks{0};
std::atomic<std::size_t> mapped_bytes{0};
std::atomic<std::size_t> mapped_total{0};
std::atomic<std::size_t> reused_total{0};
std::atomic<std::size_t> retired_stacks{0};
std::atomic<std::size_t> pool_limit{1024};

// The process-wide pool. Leaked on purpose (never destroyed): threads may release stacks into it
// during static destruction.
struct shared_pool {
  mutex lock;
  std::vector<fiber_stack> stacks SHOAL_GUARDED_BY(lock);
};
shared_pool& pool() {
  static auto* p = new shared_pool;
  return *p;
}

bool matches(const fiber_stack& s, std::size_t size, bool guard) noexcept {
  return s.size == size && s.guarded == guard;
}

void unmap(const fiber_stack& s) noexcept {
  ::munmap(s.mapping, s.mapping_size);
  mapped_bytes.fetch_sub(s.mapping_size, std::memory_order_relaxed);
}

// Into the shared pool, or unmapped when it is full.
void give_to_pool(const fiber_stack& s) noexcept {
  {
    shared_pool& p = pool();
    mutex_lock hold(p.lock);
    if (p.stacks.size() < pool_limit.load(std::memory_order_relaxed)) {
      try {
        p.stacks.push_back(s);
        return;
        // NOLINTNEXTLINE(bugprone-empty-catch): no memory to remember it: unmap it below.
      } catch (const std::bad_alloc&) {
      }
    }
  }
  pooled_stacks.fetch_sub(1, std::memory_order_relaxed);
  unmap(s);
}

// This thread's cache: constant-initialised (no guard on the hot path); `reaper` hands it to the
// shared pool at thread exit. State 0: reaper not yet constructed, 1: alive, 2: thread exiting.
constinit thread_local std::array<fiber_stack, thread_cache_stacks> cache{};
constinit thread_local std::size_t cached = 0;
constinit thread_local int cache_state = 0;

struct cache_reaper {
  cache_reaper() noexcept { cache_state = 1; }
  cache_reaper(const cache_reaper&) = delete;
  cache_reaper& operator=(const cache_reaper&) = delete;
  ~cache_reaper() {
    cache_state = 2;
    while (cached > 0) give_to_pool(cache[--cached]);
  }
};
thread_local cache_reaper reaper;

bool cache_alive() noexcept {
  if (cache_state == 0) (void)&reaper;  // odr-use: constructs it, which sets cache_state
  return cache_state == 1;
}

bool take_cached(std::size_t size, bool guard, fiber_stack& out) noexcept {
  if (!cache_alive()) return false;
  for (std::size_t i = cached; i-- > 0;) {
    if (matches(cache[i], size, guard)) {
      out = cache[i];
      cache[i] = cache[--cached];
      return true;
    }
  }
  return false;
}

bool take_pooled(std::size_t size, bool guard, fiber_stack& out) noexcept {
  shared_pool& p = pool();
  mutex_lock hold(p.lock);
  for (std::size_t i = p.stacks.size(); i-- > 0;) {
    if (matches(p.stacks[i], size, guard)) {
      out = p.stacks[i];
      p.stacks[i] = p.stacks.back();
      p.stacks.pop_back();
      return true;
    }
  }
  return false;
}

[[noreturn]] void throw_map_error(int error, std::size_t bytes, bool guard) {
  std::string what = "shoal::fiber: cannot map a stack of " + std::to_string(bytes) + " bytes (" +
                     std::to_string(live_stacks.load(std::memory_order_relaxed)) +
                     " fiber stacks live)";
  if (error == ENOMEM && guard) {
    what +=
        "; each guarded stack takes two of the kernel's vm.max_map_count mappings (65530 by "
        "default): raise it, or start fibers with fiber_options{.guard_page = false}";
  }
  throw std::system_error(error, std::generic_category(), what);
}

fiber_stack map_stack(std::size_t size, bool guard) {
  const std::size_t page = page_size();
  fiber_stack s;
  s.size = size;
  s.guarded = guard;
  s.mapping_size = size + (guard ? page : 0);
  void* m = ::mmap(nullptr, s.mapping_size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (m == MAP_FAILED) throw_map_error(errno, s.mapping_size, guard);
  s.mapping = static_cast<char*>(m);
  if (guard && ::mprotect(s.mapping, page, PROT_NONE) != 0) {
    const int error = errno;
    ::munmap(s.mapping, s.mapping_size);
    throw_map_error(error, s.mapping_size, guard);
  }
  mapped_bytes.fetch_add(s.mapping_size, std::memory_order_relaxed);
  mapped_total.fetch_add(1, std::memory_order_relaxed);
  return s;
}

}  // namespace

std::size_t page_size() noexcept {
  static const std::size_t size = [] {
    const long p = ::sysconf(_SC_PAGESIZE);
    return p > 0 ? static_cast<std::size_t>(p) : std::size_t{4096};
  }();
  return size;
}

fiber_stack acquire_stack(std::size_t size, bool guard) {
  const std::size_t page = page_size();
  if (size == 0) size = fiber_default_stack_size;
  size = (size + page - 1) / page * page;
  fiber_stack s;
  if (take_cached(size, guard, s) || take_pooled(size, guard, s)) {
    pooled_stacks.fetch_sub(1, std::memory_order_relaxed);
    reused_total.fetch_add(1, std::memory_order_relaxed);
  } else {
    s = map_stack(size, guard);
  }
  live_stacks.fetch_add(1, std::memory_order_relaxed);
  return s;
}

void release_stack(const fiber_stack& stack) noexcept {
  // Frames that never returned (the fiber's entry, an unwound wait) leave their redzones
  // poisoned: clean the whole stack before another fiber uses it.
  asan_unpoison(stack.bottom(), stack.size);
  live_stacks.fetch_sub(1, std::memory_order_relaxed);
  pooled_stacks.fetch_add(1, std::memory_order_relaxed);
  if (cache_alive() && cached < thread_cache_stacks) {
    cache[cached++] = stack;
    return;
  }
  give_to_pool(stack);
}

void retire_stack(const fiber_stack& stack) noexcept {
  asan_unpoison(stack.bottom(), stack.size);  // as in release_stack: the shadow stays clean
  // Failures change nothing that matters: the stack is still never reused.
  (void)::madvise(stack.mapping, stack.mapping_size, MADV_DONTNEED);
  (void)::mprotect(stack.mapping, stack.mapping_size, PROT_NONE);
  live_stacks.fetch_sub(1, std::memory_order_relaxed);
  retired_stacks.fetch_add(1, std::memory_order_relaxed);
  mapped_bytes.fetch_sub(stack.mapping_size, std::memory_order_relaxed);
}

}  // namespace detail

fiber_stack_stats fiber_stacks() noexcept {
  fiber_stack_stats s;
  s.live = detail::live_stacks.load(std::memory_order_relaxed);
  s.pooled = detail::pooled_stacks.load(std::memory_order_relaxed);
  s.mapped_bytes = detail::mapped_bytes.load(std::memory_order_relaxed);
  s.mapped_total = detail::mapped_total.load(std::memory_order_relaxed);
  s.reused_total = detail::reused_total.load(std::memory_order_relaxed);
  s.retired = detail::retired_stacks.load(std::memory_order_relaxed);
  return s;
}

void set_fiber_stack_pool_limit(std::size_t stacks) noexcept {
  detail::pool_limit.store(stacks, std::memory_order_relaxed);
  // Trim what the shared pool holds beyond the new limit.
  detail::shared_pool& p = detail::pool();
  detail::mutex_lock hold(p.lock);
  while (p.stacks.size() > stacks) {
    const detail::fiber_stack s = p.stacks.back();
    p.stacks.pop_back();
    detail::pooled_stacks.fetch_sub(1, std::memory_order_relaxed);
    detail::unmap(s);
  }
}

}  // namespace shoal
