// SPDX-License-Identifier: Apache-2.0
// shoal/detail/task_block.hpp: a range's tasks moved into one block from the frame allocator, the
// children's record of when_all(range) when the range is not a std::vector<task<T>>.
//
// What: task_block<T> owns the task<T>s of an input range whose elements are given as rvalues (a
// view that makes them, `iota | transform`, or a container passed as an rvalue, moved from), in
// one block from frame_allocate (the thread-local recycling cache: no malloc in steady state on
// one thread, where a std::vector of tasks costs glibc's malloc and free per fork). Sized from the
// range when it knows its size; otherwise the block starts at `initial_room` tasks and doubles.
// It offers what fork_range reads of a vector: data(), size(), operator[], begin/end, clear().
//
// Lifetime: owns the tasks, and so their frames; clear() destroys them (the block stays), the
// destructor whatever is left and the block. Movable (the moved-from block is empty).
// Thread-safety: none; the parent's alone.
#pragma once

#include <cstddef>
#include <new>
#include <ranges>
#include <type_traits>
#include <utility>
#include <vector>

#include "shoal/frame_allocator.hpp"
#include "shoal/task.hpp"

namespace shoal::detail {

template <class T>
inline constexpr bool is_task_type_v = false;
template <class T>
inline constexpr bool is_task_type_v<task<T>> = true;
template <class T>
inline constexpr bool is_task_vector_v = false;
template <class T, class A>
inline constexpr bool is_task_vector_v<std::vector<task<T>, A>> = true;

// A range when_all(range) takes (besides std::vector<task<T>>, which has its own overload): an
// input range of task<T> whose elements it may move from: given as rvalues (a view that makes
// them), or held by a container passed as an rvalue (not a borrowed view of someone's tasks).
template <class R>
concept task_range = std::ranges::input_range<R> && is_task_type_v<std::ranges::range_value_t<R>> &&
                     !is_task_vector_v<std::remove_cvref_t<R>> &&
                     (!std::is_lvalue_reference_v<std::ranges::range_reference_t<R>> ||
                      (!std::is_lvalue_reference_v<R> && !std::ranges::borrowed_range<R>));

// The value type of a task_range's tasks: T of task<T>.
template <class R>
using task_range_value_t = typename std::ranges::range_value_t<R>::value_type;

template <class T>
class task_block {
 public:
  // How many tasks the block holds at first when the range does not know its size.
  static constexpr std::size_t initial_room = 16;

  // Moves every task of `range` in, in order. Throws what the range's iteration throws (a task's
  // frame not allocated: std::bad_alloc), or std::bad_alloc; the tasks moved in so far are then
  // destroyed unstarted.
  template <class Range>
  explicit task_block(Range&& range) : task_block(room_for(range)) {
    for (auto&& t : range) {
      if (size_ == room_) grow();
      ::new (static_cast<void*>(tasks_ + size_)) task<T>(std::move(t));
      ++size_;
    }
  }
  task_block(task_block&& other) noexcept
      : tasks_(std::exchange(other.tasks_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        room_(std::exchange(other.room_, 0)) {}
  task_block(const task_block&) = delete;
  task_block& operator=(const task_block&) = delete;
  task_block& operator=(task_block&&) = delete;
  ~task_block() {
    clear();
    if (tasks_ != nullptr) frame_deallocate(tasks_, bytes(room_));
  }

  [[nodiscard]] task<T>* data() const noexcept { return tasks_; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] task<T>& operator[](std::size_t i) const noexcept { return tasks_[i]; }
  [[nodiscard]] task<T>* begin() const noexcept { return tasks_; }
  [[nodiscard]] task<T>* end() const noexcept { return tasks_ + size_; }
  // Destroys the tasks (and their frames), in order; the block stays.
  void clear() noexcept {
    for (std::size_t i = 0; i < size_; ++i) tasks_[i].~task<T>();
    size_ = 0;
  }

 private:
  explicit task_block(std::size_t room)
      : tasks_(room == 0 ? nullptr : static_cast<task<T>*>(frame_allocate(bytes(room)))),
        room_(room) {}

  template <class Range>
  static std::size_t room_for(Range& range) {
    if constexpr (std::ranges::sized_range<Range>) {
      return static_cast<std::size_t>(std::ranges::size(range));
    } else {
      return initial_room;
    }
  }
  static constexpr std::size_t bytes(std::size_t tasks) noexcept { return tasks * sizeof(task<T>); }
  // Twice the room (one task at least), the tasks moved over. Throws std::bad_alloc (nothing
  // changed then).
  void grow() {
    const std::size_t room = room_ == 0 ? 1 : room_ * 2;
    auto* const tasks = static_cast<task<T>*>(frame_allocate(bytes(room)));
    for (std::size_t i = 0; i < size_; ++i) {
      ::new (static_cast<void*>(tasks + i)) task<T>(std::move(tasks_[i]));
      tasks_[i].~task<T>();
    }
    if (tasks_ != nullptr) frame_deallocate(tasks_, bytes(room_));
    tasks_ = tasks;
    room_ = room;
  }

  task<T>* tasks_;
  std::size_t size_ = 0;
  std::size_t room_;
};

}  // namespace shoal::detail
