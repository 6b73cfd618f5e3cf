// SPDX-License-Identifier: Apache-2.0
// shoal/gate.hpp: admit work until closed, then wait for what is in flight to leave.
//
// What: a gate counts the work inside it. `g.enter()` admits one piece of work and returns a
// gate_token that leaves the gate when destroyed; once the gate is closed, enter() admits
// nothing and returns an empty token (false). `co_await g.close()` closes the gate (at the call,
// before the await) and then waits until every token has been destroyed. This is how a program
// drains on shutdown: stop issuing, finish what is in flight, report.
//
// Lifetime: the gate must outlive its tokens; destroy it with nothing inside, once every
// co_await on close() has returned (asserted in debug builds). A closed gate stays closed.
// Thread-safety: every member may be called from any thread, concurrently; tokens may be moved
// to and destroyed on any thread.
// Memory ordering: what a piece of work did before its token left happens-before a close()
// that it let complete returns true.
#pragma once

#include <cstddef>

#include "shoal/detail/spin_lock.hpp"
#include "shoal/detail/unique_hold.hpp"
#include "shoal/detail/wait_queue.hpp"

namespace shoal {

class gate;

/// One admission into a gate, leaving it on destruction. Move-only; false when empty.
using gate_token = detail::unique_hold<gate>;
/// What close() returns: an awaitable (see the header comment), awaited at once.
using gate_close_awaiter = detail::waiter;

/// Counts the work inside it; closes, then waits for that work to leave (see the header).
class gate {
 public:
  gate() noexcept = default;
  gate(const gate&) = delete;
  gate& operator=(const gate&) = delete;
  /// Asserts (debug builds) that nothing is inside and nobody awaits close().
  ~gate();

  /// Admits one piece of work, or nothing (an empty token) once the gate is closed.
  [[nodiscard]] gate_token enter() noexcept;
  /// Closes the gate now (at the call, before the await); awaiting the result waits until every
  /// token has been destroyed.
  ///   Result: bool, true once nothing is in flight, false when the wait was cancelled (the gate
  ///           is closed all the same, and work may still be inside).
  ///   Errors: std::logic_error when it must suspend with no executor running on this thread.
  ///   Cancellation: the chain's stop token (shoal/stop.hpp): a stop requested before the await
  ///                 returns false at once; one requested while it waits wakes it promptly with
  ///                 false. Bound it in time with with_timeout (shoal/timeout.hpp).
  ///   Resumes on: its own executor, never inline on the thread whose token left last: the chain's
  ///               home worker when it is bound (pinned), else the executor it suspended on. When
  ///               nothing is in flight it continues at once on the same thread.
  ///   Thread-safety: several coroutines may await close() at once; all wake when the gate empties.
  ///   Example:
  ///     shoal::gate requests;
  ///     // per request:                        // on shutdown:
  ///     auto inside = requests.enter();           co_await requests.close();
  ///     if (!inside) co_return;  // shutting down  report();
  [[nodiscard]] gate_close_awaiter close() noexcept;

  /// True once close() was called (a closed gate stays closed). Any thread.
  [[nodiscard]] bool is_closed() const noexcept;
  /// Tokens alive now; a snapshot.
  [[nodiscard]] std::size_t in_flight() const noexcept;

 private:
  friend void release_hold(gate& g) noexcept { g.leave(); }
  void leave() noexcept;
  static bool attempt_drain(void* self, detail::waiter& w, detail::wake_list& woken) noexcept;

  mutable detail::spin_lock lock_;
  std::size_t in_flight_ SHOAL_GUARDED_BY(lock_) = 0;
  bool closed_ SHOAL_GUARDED_BY(lock_) = false;
  detail::wait_list closers_ SHOAL_GUARDED_BY(lock_);  // close() awaiters, while in_flight_ > 0
};

}  // namespace shoal
