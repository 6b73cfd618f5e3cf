// SPDX-License-Identifier: Apache-2.0
// shoal/detail/channel.hpp: the buffer and the awaiters behind shoal/channel.hpp.
#pragma once

#include <coroutine>
#include <cstddef>
#include <memory>
#include <optional>
#include <utility>

#include "shoal/detail/task_env.hpp"
#include "shoal/detail/wait_queue.hpp"

namespace shoal {
template <class T>
class channel;
}  // namespace shoal

namespace shoal::detail {

// A fixed-capacity FIFO ring, allocated once. Capacity 0: always full and empty.
// Thread-safety: none; guarded by its channel's lock.
template <class T>
class value_ring {
 public:
  explicit value_ring(std::size_t capacity)
      : slots_(std::make_unique<std::optional<T>[]>(capacity)), capacity_(capacity) {}

  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] bool full() const noexcept { return size_ == capacity_; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }

  // Not full: a wrap by comparison, not by division (a division costs more than the rest).
  template <class U>
  void push(U&& value) noexcept {
    std::size_t tail = head_ + size_;
    if (tail >= capacity_) tail -= capacity_;
    slots_[tail].emplace(std::forward<U>(value));
    ++size_;
  }
  // Not empty.
  T pop() noexcept {
    std::optional<T>& slot = slots_[head_];
    // NOLINTNEXTLINE(bugprone-unchecked-optional-access): slots below size_ are filled
    T value = std::move(*slot);
    slot.reset();
    if (++head_ == capacity_) head_ = 0;
    --size_;
    return value;
  }

 private:
  std::unique_ptr<std::optional<T>[]> slots_;
  std::size_t capacity_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

// The channel awaiters' await_suspend: when the awaiting chain is not stopped and `done_now`
// (one short critical section of the channel's) completes the operation, `w` is granted and the
// coroutine continues at once; otherwise the full path (shoal/detail/wait_queue.hpp) decides,
// under the channel's lock: wait, refuse (closed, stopped) or complete.
template <class Promise, class DoneNow>
bool complete_or_wait(waiter& w, std::coroutine_handle<Promise> h, DoneNow done_now) {
  const task_env* env = env_of(h);
  if ((env == nullptr || !env->stop.stop_requested()) && done_now()) {
    w.grant();
    return false;
  }
  return w.await_suspend(h);
}

// The awaiter of channel::send. Result: bool (true: delivered; false: closed or cancelled).
template <class T>
class send_waiter : public waiter {
 public:
  send_waiter(const wait_site& site, T value) noexcept : waiter(site), value_(std::move(value)) {}

  // The fast path: an open channel with room and no receiver waiting buffers the value.
  template <class Promise>
  bool await_suspend(std::coroutine_handle<Promise> h) {
    return complete_or_wait(*this, h, [this] { return channel()->send_now(value_); });
  }

 private:
  friend class shoal::channel<T>;
  shoal::channel<T>* channel() const noexcept { return static_cast<shoal::channel<T>*>(owner()); }
  T value_;  // moved out by the receiver (or into the buffer) that grants this waiter
};

// The awaiter of channel::receive. Result: the value, or nullopt (closed and drained, or
// cancelled).
template <class T>
class receive_waiter : public waiter {
 public:
  explicit receive_waiter(const wait_site& site) noexcept : waiter(site) {}

  // The fast path: a value buffered and no sender waiting: it is taken.
  template <class Promise>
  bool await_suspend(std::coroutine_handle<Promise> h) {
    return complete_or_wait(*this, h, [this] { return channel()->receive_now(slot_); });
  }

  std::optional<T> await_resume() noexcept {
    waiter::await_resume();
    return std::move(slot_);
  }

 private:
  friend class shoal::channel<T>;
  shoal::channel<T>* channel() const noexcept { return static_cast<shoal::channel<T>*>(owner()); }
  std::optional<T> slot_;  // filled by the sender (or receive attempt) that grants this waiter
};

}  // namespace shoal::detail
