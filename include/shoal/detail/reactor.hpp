// SPDX-License-Identifier: Apache-2.0
// shoal/detail/reactor.hpp: one epoll instance, owned by one executor and polled on its thread.
//
// What: each thread_pool worker (and the test scheduler) owns a reactor. File descriptors are
// registered once, edge-triggered for both directions (shoal/fd_watch.hpp); when the owner
// polls, each event marks its direction ready or hands it to the coroutine waiting for it
// (detail/readiness.hpp), which is posted back to its own executor. The owner polls without
// blocking while it has other work (every few dozen resumptions and before it goes idle) and
// blocks in epoll_pwait2, with its next timer as the timeout, when it has nothing to run.
// `wake()` (an eventfd) interrupts a blocking poll from any thread.
//
// Lifetime: a registration is freed by its owner's thread only, after the poll that might still
// hold its events: a registration dropped on another thread waits in a retire list until the
// owner's next poll begins. Every registration must be dropped before its reactor is destroyed.
// Thread-safety: add/drop/wake from any thread; poll and wait only on the owner's thread.
#pragma once

#include <atomic>
#include <cstddef>
#include <optional>
#include <vector>

#include "shoal/clock.hpp"
#include "shoal/detail/mutex.hpp"
#include "shoal/detail/readiness.hpp"

namespace shoal::detail {

// What the reactor knows of one file descriptor: its two directions.
struct io_registration {
  int fd = -1;
  readiness read;
  readiness write;
  // Set (sticky) by the owner's poll before it signals `read` when the event said end of stream,
  // hang-up or error: states a recv does not consume, unlike data (fd_watch::hung_up()).
  std::atomic<bool> hung_up{false};
};

class reactor {
 public:
  reactor();
  reactor(const reactor&) = delete;
  reactor& operator=(const reactor&) = delete;
  ~reactor();

  // Registers `fd` (edge-triggered, both directions); throws std::system_error on failure.
  io_registration* add(int fd);
  // Deregisters and, on the owner's thread, frees at once; elsewhere frees at the next poll.
  void drop(io_registration* reg) noexcept;

  // True while at least one descriptor is registered (polling is skipped otherwise).
  [[nodiscard]] bool active() const noexcept {
    return registered_.load(std::memory_order_relaxed) != 0;
  }
  // Dispatches whatever is ready now without blocking; returns the number of events.
  std::size_t poll_now() noexcept;
  // Blocks until an event, wake(), or `until` (forever when empty); dispatches what arrived.
  void wait(std::optional<time_point> until) noexcept;
  // Interrupts a wait() in progress, or the next one. Any thread.
  void wake() noexcept;

  // Marks the calling thread as the owner (the worker's or scheduler's thread).
  void set_owner_thread() noexcept;

 private:
  std::size_t poll(int timeout_ms, const void* timeout_ts) noexcept;
  void free_retired() noexcept;
  [[nodiscard]] bool on_owner_thread() const noexcept;

  int epoll_fd_ = -1;
  int wake_fd_ = -1;
  std::atomic<std::size_t> registered_{0};
  std::atomic<const void*> owner_thread_{nullptr};
  mutex retired_mutex_;
  std::vector<io_registration*> retired_ SHOAL_GUARDED_BY(retired_mutex_);
  std::atomic<bool> has_retired_{false};
};

}  // namespace shoal::detail
