// SPDX-License-Identifier: Apache-2.0
// fifo.hpp: a single-threaded FIFO on a growable ring buffer. Unlike std::deque it never
// allocates again once it has grown to the largest size it has held.
// Thread-safety: none; a worker's own queues only.
#pragma once

#include <bit>
#include <cstddef>
#include <utility>
#include <vector>

namespace shoal::detail {

template <class T>
class fifo {
 public:
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }

  // Makes room for n items in all (rounded up to a power of two), so that pushes up to there
  // cannot fail.
  void reserve(std::size_t n) {
    if (n > slots_.size()) regrow(std::bit_ceil(n));
  }

  void push_back(T value) {
    if (size_ == slots_.size()) regrow(slots_.empty() ? 64 : slots_.size() * 2);
    slots_[(head_ + size_) & (slots_.size() - 1)] = std::move(value);
    ++size_;
  }
  // Precondition: !empty().
  T pop_front() noexcept {
    T value = std::move(slots_[head_]);
    head_ = (head_ + 1) & (slots_.size() - 1);
    --size_;
    return value;
  }
  // The i-th oldest item. Precondition: i < size().
  T& operator[](std::size_t i) noexcept { return slots_[(head_ + i) & (slots_.size() - 1)]; }

 private:
  void regrow(std::size_t capacity) {
    std::vector<T> bigger(capacity);
    for (std::size_t i = 0; i < size_; ++i) bigger[i] = std::move((*this)[i]);
    slots_ = std::move(bigger);
    head_ = 0;
  }

  std::vector<T> slots_;  // size is zero or a power of two
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace shoal::detail
