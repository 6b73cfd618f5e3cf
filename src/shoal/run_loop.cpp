// SPDX-License-Identifier: Apache-2.0
// The loop behind sync_wait (shoal/detail/run_loop.hpp) and shoal::now().
#include "shoal/detail/run_loop.hpp"

#include "shoal/detail/transfer.hpp"

namespace shoal {

time_point now() noexcept {
  executor* ex = executor::current();
  return ex != nullptr ? ex->now() : clock::now();
}

namespace detail {

void run_loop::post(std::coroutine_handle<> h, bool /*pinned*/) noexcept {
  if (executor::current() == this) {  // the running thread: no other thread touches local_
    local_.push_back(h);
    return;
  }
  const mutex_lock lock(mutex_);
  remote_.push_back(h);
  // relaxed: a hint for run(), which re-reads remote_ under the lock.
  remote_posted_.store(true, std::memory_order_relaxed);
  // Under the lock: the loop may be destroyed as soon as it is released. Only when run() waits
  // (it sets waiting_ under this lock before it blocks, so no wake-up is lost).
  if (waiting_) wake_.notify_one();
}

void run_loop::defer(std::coroutine_handle<> h) noexcept { post(h, true); }

time_point run_loop::now() const noexcept { return clock::now(); }

void run_loop::add_timer(timer_node& node) { timers_.push(node); }

bool run_loop::cancel_timer(timer_node& node) noexcept { return timers_.erase(node); }

bool run_loop::add_idle_hook(idle_hook& hook) noexcept {
  idle_hooks_.add(hook);
  return true;
}

void run_loop::finish() noexcept {
  const mutex_lock lock(mutex_);
  finished_ = true;
  wake_.notify_one();
}

void run_loop::fire_due_timers() {
  if (timers_.empty()) return;  // no clock read per resumption when nothing is armed
  const time_point t = clock::now();
  while (timer_node* node = timers_.pop_expired(t)) node->fire(*node);
}

bool run_loop::take_remote() {
  const mutex_lock lock(mutex_);
  remote_posted_.store(false, std::memory_order_relaxed);  // relaxed: under the lock, see post
  if (remote_.empty()) return false;
  if (local_.empty()) {
    local_.swap(remote_);
  } else {
    local_.insert(local_.end(), remote_.begin(), remote_.end());
    remote_.clear();
  }
  return true;
}

void run_loop::run() {
  executor_scope scope(this);
  for (;;) {
    // relaxed: a stale false only delays the splice to the next round or the idle check below.
    if (remote_posted_.load(std::memory_order_relaxed)) take_remote();
    if (!local_.empty()) {
      std::coroutine_handle<> h = local_.front();
      local_.pop_front();
      resume(h);
      fire_due_timers();
      continue;
    }
    if (take_remote()) continue;
    if (idle_hooks_.run()) continue;  // a hook made work ready (posted)
    mutex_lock lock(mutex_);
    if (!remote_.empty()) continue;
    if (finished_) return;
    waiting_ = true;
    if (auto next = timers_.next_deadline()) {
      lock.wait_until(wake_, *next);
      waiting_ = false;
      lock.unlock();
      fire_due_timers();
    } else {
      lock.wait(wake_);
      waiting_ = false;
    }
  }
}

}  // namespace detail
}  // namespace shoal
