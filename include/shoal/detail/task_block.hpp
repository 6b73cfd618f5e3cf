// SPDX-License-Identifier: Apache-2.0
// shoal/detail/task_block.hpp: a range's tasks moved into one block from the frame allocator, the
// children's record of when_all(range) when the range is not a std::vector<task<T>>.
//
// What: task_block<T> owns the task<T>s of an input range whose elements are given as rvalues (a
// view that makes them, `iota | transform`, or a container passed as an rvalue, moved from), in
// one block from frame_allocate (the thread-local recycling cache: no malloc in steady state on
// one thread, where a std::vector of tasks costs glibc's malloc and free per fork), or, up to
// `inline_room` tasks, in the task_block itself (nothing allocated: it lives in the awaitable, in
// the parent's frame). Sized from the range when it knows its size; otherwise it starts with the
// inline room and doubles. It offers what fork_range reads of a vector: data(), size(),
// operator[], begin/end, clear().
//
// Lifetime: owns the tasks, and so their frames; clear() destroys them (the block stays), the
// destructor whatever is left and the block. Movable (the moved-from block is empty).
// Thread-safety: none; the parent's alone.
#pragma once

#include <concepts>
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
inline constexpr bool is_task_vector_v = false;
template <class T, class A>
inline constexpr bool is_task_vector_v<std::vector<task<T>, A>> = true;

// A range when_all(range) takes (besides std::vector<task<T>>, which has its own overload): an
// input range of task<T> whose elements it may move from: given as rvalues (a view that makes
// them), or held by a non-const container passed as an rvalue (not a borrowed view of someone's
// tasks).
template <class R>
concept task_range = std::ranges::input_range<R> && is_task_v<std::ranges::range_value_t<R>> &&
                     std::constructible_from<std::ranges::range_value_t<R>,
                                             std::ranges::range_rvalue_reference_t<R>> &&
                     !is_task_vector_v<std::remove_cvref_t<R>> &&
                     (!std::is_lvalue_reference_v<std::ranges::range_reference_t<R>> ||
                      (!std::is_lvalue_reference_v<R> && !std::ranges::borrowed_range<R>));

// The value type of a task_range's tasks: T of task<T>.
template <class R>
using task_range_value_t = typename std::ranges::range_value_t<R>::value_type;

template <class T>
class task_block {
 public:
  // How many tasks the block holds in itself (in the awaitable, in the parent's frame): a range
  // up to this long allocates nothing; a longer one, or one that does not know its size and
  // outgrows it, goes to a block from the frame allocator.
  static constexpr std::size_t inline_room = 16;

  // Moves every task of `range` in, in order. Throws what the range's iteration throws (a task's
  // frame not allocated: std::bad_alloc), or std::bad_alloc; the tasks moved in so far are then
  // destroyed unstarted.
  template <class Range>
  explicit task_block(Range&& range) : task_block(room_for(range)) {
    // The count and the room in locals, size_ written once at the end (or before a throw leaves
    // the constructor, for the destructor): each task made is a call the compiler cannot see
    // through, after which it would load the members again.
    task<T>* tasks = tasks_;
    std::size_t n = 0;
    try {
      for (auto&& t : range) {
        if (n == room_) [[unlikely]] {
          size_ = n;
          tasks = grow();
        }
        ::new (static_cast<void*>(tasks + n)) task<T>(std::move(t));
        ++n;
      }
    } catch (...) {
      size_ = n;
      throw;
    }
    size_ = n;
  }
  task_block(task_block&& other) noexcept
      : tasks_(other.on_heap() ? other.tasks_ : inline_tasks()),
        size_(other.size_),
        room_(other.room_) {
    if (other.on_heap()) {
      other.tasks_ = other.inline_tasks();
      other.room_ = inline_room;
    } else {
      move_tasks(other.tasks_, tasks_, size_);
    }
    other.size_ = 0;
  }
  task_block(const task_block&) = delete;
  task_block& operator=(const task_block&) = delete;
  task_block& operator=(task_block&&) = delete;
  ~task_block() {
    clear();
    if (on_heap()) frame_deallocate(tasks_, bytes(room_));
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
  // Room for `room` tasks: the inline room when it is enough, else a block.
  explicit task_block(std::size_t room)
      : tasks_(room <= inline_room ? inline_tasks()
                                   : static_cast<task<T>*>(frame_allocate(bytes(room)))),
        room_(room <= inline_room ? inline_room : room) {}

  template <class Range>
  static std::size_t room_for(Range& range) {
    if constexpr (std::ranges::sized_range<Range>) {
      return static_cast<std::size_t>(std::ranges::size(range));
    } else {
      return inline_room;
    }
  }
  static constexpr std::size_t bytes(std::size_t tasks) noexcept { return tasks * sizeof(task<T>); }
  task<T>* inline_tasks() noexcept { return reinterpret_cast<task<T>*>(inline_); }
  [[nodiscard]] bool on_heap() const noexcept {
    return tasks_ != reinterpret_cast<const task<T>*>(inline_);
  }
  // Moves n tasks from `from` into the raw room at `to`, ending the moved-from ones.
  static void move_tasks(task<T>* from, task<T>* to, std::size_t n) noexcept {
    for (std::size_t i = 0; i < n; ++i) {
      ::new (static_cast<void*>(to + i)) task<T>(std::move(from[i]));
      from[i].~task<T>();
    }
  }
  // Twice the room in a block, the size_ tasks moved over; returns it. Throws std::bad_alloc
  // (nothing changed then).
  [[gnu::noinline]] task<T>* grow() {
    const std::size_t room = room_ * 2;
    auto* const tasks = static_cast<task<T>*>(frame_allocate(bytes(room)));
    move_tasks(tasks_, tasks, size_);
    if (on_heap()) frame_deallocate(tasks_, bytes(room_));
    tasks_ = tasks;
    room_ = room;
    return tasks;
  }

  task<T>* tasks_;
  std::size_t size_ = 0;
  std::size_t room_;
  alignas(task<T>) std::byte inline_[inline_room * sizeof(task<T>)];
};

}  // namespace shoal::detail
