// SPDX-License-Identifier: Apache-2.0
// shoal/fd_watch.hpp: wait for a file descriptor to become readable or writable.
//
// What: an fd_watch registers a non-blocking descriptor with the reactor of the executor it is
// created on (each thread_pool worker has one; shoal/detail/reactor.hpp), edge-triggered, once
// for its whole life. `co_await w.readable()` suspends until data (or EOF, or an error) may be
// read, `co_await w.writable()` until a write may make progress. The usual loop is: try the
// call; on EAGAIN, await the direction; retry. The watch remembers an edge that arrived while
// nobody waited, so none is lost between the failed call and the await.
//
// Lifetime: the watch does not own the descriptor: destroy (or reset) the watch before closing
// it, and before the executor it was created on goes away. Nobody may be waiting on it then.
// Construction and destruction may happen on any thread of the pool. Moving transfers the
// registration. Cost: one small allocation per watch; none per wait.
#pragma once

#include <chrono>
#include <utility>

#include "shoal/clock.hpp"
#include "shoal/detail/reactor.hpp"
#include "shoal/detail/readiness.hpp"
#include "shoal/task.hpp"
#include "shoal/timeout.hpp"

namespace shoal {

/// What readable() and writable() return: awaitables (see the header comment), awaited at once.
using readiness_awaiter = detail::readiness_waiter;

/// A registration of one non-blocking descriptor with a reactor (see the header). Move-only.
class fd_watch {
 public:
  /// An empty watch (false): nothing registered.
  fd_watch() noexcept = default;
  /// Registers `fd` with the current executor's reactor. Errors: std::logic_error when the
  /// current executor has none (or there is no executor); std::system_error when epoll refuses.
  explicit fd_watch(int fd);
  fd_watch(fd_watch&& other) noexcept
      : reactor_(std::exchange(other.reactor_, nullptr)),
        reg_(std::exchange(other.reg_, nullptr)) {}
  fd_watch& operator=(fd_watch&& other) noexcept {
    if (this != &other) {
      reset();
      reactor_ = std::exchange(other.reactor_, nullptr);
      reg_ = std::exchange(other.reg_, nullptr);
    }
    return *this;
  }
  fd_watch(const fd_watch&) = delete;
  fd_watch& operator=(const fd_watch&) = delete;
  ~fd_watch() { reset(); }

  /// Deregisters (the descriptor stays open). Nobody may be waiting.
  void reset() noexcept;

  /// True while a descriptor is registered.
  [[nodiscard]] explicit operator bool() const noexcept { return reg_ != nullptr; }
  /// The registered descriptor, or -1.
  [[nodiscard]] int fd() const noexcept { return reg_ != nullptr ? reg_->fd : -1; }
  /// True once an event reported end of stream, a hang-up or an error (sticky): states a read
  /// does not consume, so no later edge may come for them. Seen after the readable() wait (or
  /// the remembered edge) that reported them; a reader that skips its read when the last one
  /// drained the descriptor checks it first. False on an empty watch.
  [[nodiscard]] bool hung_up() const noexcept {
    return reg_ != nullptr && reg_->hung_up.load(std::memory_order_relaxed);
  }

  /// Waits until data (or EOF, or an error) may be read.
  ///   Result: bool, true when the direction became ready (possibly spuriously: retry the call),
  ///           false when the wait was cancelled.
  ///   Errors: std::logic_error when awaited outside an executor, or when a second coroutine
  ///           waits on the same direction of the same watch.
  ///   Cancellation: the chain's stop token: a stop requested before the wait returns false at
  ///                 once; one requested during it wakes it promptly. Bound it in time with
  ///                 with_timeout (shoal/timeout.hpp), or the overloads taking a timeout.
  ///   Resumes on: the executor it was awaited on (pinned there when the chain is bound), never on
  ///               the reactor's thread when that is another worker.
  ///   Thread-safety: one waiter per direction at a time; the two directions are independent.
  ///   Example:
  ///     shoal::fd_watch w(fd);
  ///     while ((n = ::read(fd, buf, size)) < 0 && errno == EAGAIN) {
  ///       if (!co_await w.readable()) co_return cancelled;
  ///     }
  [[nodiscard]] readiness_awaiter readable() noexcept { return readiness_awaiter(reg_->read); }
  /// Waits until a write may make progress. Result, Errors, Cancellation, Resumes on,
  /// Thread-safety: as readable().
  [[nodiscard]] readiness_awaiter writable() noexcept { return readiness_awaiter(reg_->write); }
  /// As readable(), giving up (false) after `timeout` too.
  [[nodiscard]] task<bool> readable(duration timeout) { return with_timeout(timeout, readable()); }
  /// As writable(), giving up (false) after `timeout` too.
  [[nodiscard]] task<bool> writable(duration timeout) { return with_timeout(timeout, writable()); }

 private:
  detail::reactor* reactor_ = nullptr;
  detail::io_registration* reg_ = nullptr;
};

}  // namespace shoal
