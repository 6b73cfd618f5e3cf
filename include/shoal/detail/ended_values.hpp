// SPDX-License-Identifier: Apache-2.0
// shoal/detail/ended_values.hpp: the values of a range of ended tasks, seen as a range, so that
// when_all(vector) builds its result vector in one pass.
//
// What: ended_value_iterator walks a contiguous range of task<T> whose frames have all ended with a
// value (when_all's children when none failed), and yields a reference to each value in its frame
// without testing its outcome. Wrapped in std::move_iterator it moves them out: std::vector's range
// constructor then sizes, allocates and fills the result once, with no capacity test per element
// (as push_back after reserve has). A random-access iterator over the tasks' positions.
//
// Lifetime: valid while the tasks and their frames are; the parent's alone (after the join).
#pragma once

#include <compare>
#include <cstddef>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

#include "shoal/task.hpp"

namespace shoal::detail {

template <class T>
class ended_value_iterator {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = T*;
  using reference = T&;

  ended_value_iterator() noexcept = default;
  explicit ended_value_iterator(const task<T>* at) noexcept : at_(at) {}

  // The value of the task here (it ended with one: no test of its outcome).
  reference operator*() const noexcept {
    return task_access::handle(*at_).promise().result().known_value();
  }
  pointer operator->() const { return std::addressof(**this); }
  reference operator[](difference_type n) const { return *(*this + n); }

  ended_value_iterator& operator++() noexcept { return *this += 1; }
  ended_value_iterator operator++(int) noexcept { return std::exchange(*this, *this + 1); }
  ended_value_iterator& operator--() noexcept { return *this -= 1; }
  ended_value_iterator operator--(int) noexcept { return std::exchange(*this, *this - 1); }
  ended_value_iterator& operator+=(difference_type n) noexcept {
    at_ += n;
    return *this;
  }
  ended_value_iterator& operator-=(difference_type n) noexcept { return *this += -n; }
  friend ended_value_iterator operator+(ended_value_iterator it, difference_type n) noexcept {
    return it += n;
  }
  friend ended_value_iterator operator+(difference_type n, ended_value_iterator it) noexcept {
    return it += n;
  }
  friend ended_value_iterator operator-(ended_value_iterator it, difference_type n) noexcept {
    return it -= n;
  }
  friend difference_type operator-(ended_value_iterator a, ended_value_iterator b) noexcept {
    return a.at_ - b.at_;
  }
  friend bool operator==(ended_value_iterator a, ended_value_iterator b) noexcept = default;
  friend std::strong_ordering operator<=>(ended_value_iterator a,
                                          ended_value_iterator b) noexcept = default;

 private:
  const task<T>* at_ = nullptr;
};

// A vector of the values of `tasks` (each ended with a value), moved out of their frames in order.
template <class T, class Tasks>
std::vector<T> take_ended_values(const Tasks& tasks) {
  const ended_value_iterator<T> first(tasks.data());
  const ended_value_iterator<T> last(tasks.data() + tasks.size());
  return std::vector<T>(std::make_move_iterator(first), std::make_move_iterator(last));
}

}  // namespace shoal::detail
