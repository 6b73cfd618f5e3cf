// SPDX-License-Identifier: Apache-2.0
// shoal/detail/channel.hpp: the buffer and the awaiters behind shoal/channel.hpp.
#pragma once

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

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
  explicit value_ring(std::size_t capacity) : slots_(capacity) {}

  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] bool full() const noexcept { return size_ == slots_.size(); }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] std::size_t capacity() const noexcept { return slots_.size(); }

  template <class U>
  void push(U&& value) noexcept {
    slots_[(head_ + size_) % slots_.size()].emplace(std::forward<U>(value));
    ++size_;
  }
  T pop() noexcept {
    std::optional<T>& slot = slots_[head_];
    // NOLINTNEXTLINE(bugprone-unchecked-optional-access): slots below size_ are filled
    T value = std::move(*slot);
    slot.reset();
    head_ = (head_ + 1) % slots_.size();
    --size_;
    return value;
  }

 private:
  std::vector<std::optional<T>> slots_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

// The awaiter of channel::send. Result: bool (true: delivered; false: closed or cancelled).
template <class T>
class send_waiter : public waiter {
 public:
  send_waiter(const wait_site& site, T value) noexcept : waiter(site), value_(std::move(value)) {}

 private:
  friend class shoal::channel<T>;
  T value_;  // moved out by the receiver (or into the buffer) that grants this waiter
};

// The awaiter of channel::receive. Result: the value, or nullopt (closed and drained, or
// cancelled).
template <class T>
class receive_waiter : public waiter {
 public:
  explicit receive_waiter(const wait_site& site) noexcept : waiter(site) {}

  std::optional<T> await_resume() noexcept {
    waiter::await_resume();
    return std::move(slot_);
  }

 private:
  friend class shoal::channel<T>;
  std::optional<T> slot_;  // filled by the sender (or receive attempt) that grants this waiter
};

}  // namespace shoal::detail
