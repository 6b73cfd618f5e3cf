// SPDX-License-Identifier: Apache-2.0
// manual_scheduler.hpp: a deterministic, single-threaded executor with a fake clock, for tests.
//
// What: coroutines run only when the test says so (`run_one`, `run_all`), and time moves only
// when the test says so (`advance`). Timers armed under it use its fake clock, so a test of a
// 10-second sleep takes microseconds and its ordering is exact. Ready work runs FIFO, or in a
// seeded random order when constructed with a non-zero seed. It has a reactor, so fd_watch works
// under it with real descriptors: `poll_io` dispatches what is ready now, then runs what woke.
// Idle hooks run only when the test calls `idle()`.
//
// Thread-safety: none; everything happens on the test's thread.
#pragma once

#include <coroutine>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "shoal/detail/reactor.hpp"
#include "shoal/detail/root_task.hpp"
#include "shoal/detail/timer_heap.hpp"
#include "shoal/executor.hpp"
#include "shoal/task.hpp"

namespace shoal::testing {

// A chain started by manual_scheduler::spawn: whether it finished and with what.
template <class T>
class spawned {
 public:
  spawned(std::coroutine_handle<> root, std::unique_ptr<detail::task_result<T>> result,
          std::unique_ptr<bool> done)
      : root_(root), result_(std::move(result)), done_(std::move(done)) {}
  spawned(spawned&& other) noexcept
      : root_(std::exchange(other.root_, nullptr)),
        result_(std::move(other.result_)),
        done_(std::move(other.done_)) {}
  spawned& operator=(spawned&&) = delete;
  ~spawned() {
    if (root_) root_.destroy();
  }

  [[nodiscard]] bool done() const noexcept { return *done_; }
  // The value, or the exception rethrown. Only once done().
  T get() { return result_->take(); }

 private:
  std::coroutine_handle<> root_;
  std::unique_ptr<detail::task_result<T>> result_;
  std::unique_ptr<bool> done_;
};

class manual_scheduler final : public executor {
 public:
  explicit manual_scheduler(std::uint64_t shuffle_seed = 0) : rng_(shuffle_seed) {
    ready_.reserve(ready_room);
    reactor_.set_owner_thread();
  }
  ~manual_scheduler() override = default;

  void post(std::coroutine_handle<> h, bool /*pinned*/) noexcept override {
    if (head_ != 0 && ready_.size() == ready_.capacity()) compact();
    ready_.push_back(h);
  }
  void defer(std::coroutine_handle<> h) noexcept override {
    if (head_ != 0) {
      ready_[--head_] = h;
    } else {
      ready_.insert(ready_.begin(), h);
    }
  }
  [[nodiscard]] time_point now() const noexcept override { return now_; }
  void add_timer(detail::timer_node& node) override {
    if (fail_timers_) throw std::bad_alloc();
    timers_.push(node);
  }
  bool cancel_timer(detail::timer_node& node) noexcept override { return timers_.erase(node); }
  detail::reactor* io_reactor() noexcept override { return &reactor_; }
  // While set, add_timer throws std::bad_alloc, as a timer heap that cannot grow would.
  void fail_timers(bool fail) noexcept { fail_timers_ = fail; }
  bool add_idle_hook(detail::idle_hook& hook) noexcept override {
    idle_hooks_.add(hook);
    return true;
  }

  // Makes `t` ready as a new chain (bound to this scheduler) without running it.
  template <class T>
  spawned<T> spawn(task<T> t) {
    auto result = std::make_unique<detail::task_result<T>>();
    auto done = std::make_unique<bool>(false);
    auto mark_done = [](void* flag, std::coroutine_handle<>) noexcept {
      *static_cast<bool*>(flag) = true;
    };
    std::coroutine_handle<> root =
        detail::run_root(std::move(t), result.get()).start_with(mark_done, done.get(), this);
    post(root, true);
    return spawned<T>(root, std::move(result), std::move(done));
  }

  // Resumes one ready coroutine; false when none was ready.
  bool run_one() {
    if (ready_count() == 0) return false;
    std::size_t pick = 0;
    if (rng_ != 0) pick = next_random() % ready_count();
    std::coroutine_handle<> h = ready_[head_ + pick];
    if (pick == 0) {
      if (++head_ == ready_.size()) compact();  // empty: start again from the front
    } else {
      ready_.erase(ready_.begin() + static_cast<std::ptrdiff_t>(head_ + pick));
    }
    detail::executor_scope scope(this);
    detail::resume(h);
    return true;
  }
  // Runs until nothing is ready; returns how many resumptions ran.
  std::size_t run_all() {
    std::size_t n = 0;
    while (run_one()) ++n;
    return n;
  }
  // Moves the fake clock forward and makes every timer now due ready (fires it), then runs
  // everything ready. Returns how many resumptions ran.
  std::size_t advance(duration d) {
    now_ += d;
    while (detail::timer_node* node = timers_.pop_expired(now_)) node->fire(*node);
    return run_all();
  }

  // Dispatches the I/O events ready now (never blocks), then runs everything ready. Returns
  // how many resumptions ran.
  std::size_t poll_io() {
    reactor_.poll_now();
    return run_all();
  }

  // Goes idle once, as a real executor does when nothing is ready: calls the idle hooks, then
  // runs everything they made ready. Returns how many resumptions ran. (run_all and advance
  // never call the hooks, so a test decides exactly when the scheduler counts as idle.)
  std::size_t idle() {
    const detail::executor_scope scope(this);
    if (!idle_hooks_.run()) return 0;
    return run_all();
  }

  [[nodiscard]] std::size_t ready_count() const noexcept { return ready_.size() - head_; }
  [[nodiscard]] std::size_t timer_count() const noexcept { return timers_.size(); }

 private:
  std::uint64_t next_random() noexcept {
    rng_ ^= rng_ << 13;
    rng_ ^= rng_ >> 7;
    rng_ ^= rng_ << 17;
    return rng_;
  }

  // Drops what was taken from the front, making room at the back without allocating.
  void compact() noexcept {
    ready_.erase(ready_.begin(), ready_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }

  // Ready work: ready_[head_..] in order. Room for ready_room handles is made at construction,
  // so posts and defers allocate nothing until more are ready at once (the allocation-failure
  // tests rely on it: a post cannot report a failure).
  static constexpr std::size_t ready_room = 4096;
  std::vector<std::coroutine_handle<>> ready_;
  std::size_t head_ = 0;
  detail::timer_heap timers_;
  detail::reactor reactor_;
  detail::idle_hooks idle_hooks_;
  time_point now_{std::chrono::hours(1)};  // not zero: catches code that mistakes 0 for "unset"
  std::uint64_t rng_;
  bool fail_timers_ = false;
};

}  // namespace shoal::testing
