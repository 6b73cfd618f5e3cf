// SPDX-License-Identifier: Apache-2.0
// shoal/detail/join_all.hpp: launch every child, resume the parent when the last one has ended;
// the part when_all and when_any share.
//
// What: join_all is a fork_scope with a countdown of the children still running. On a pool worker
// with the parent unbound, the launch is work-first: every child but the first goes into the
// worker's fork deque (detail/fork_deque.hpp), where thieves take the oldest, and the parent
// transfers straight into the first child; the last child to end goes on into the parent by
// symmetric transfer (on whichever worker of the pool ran it: detail/fork_handoff.hpp), and a
// child that ends first goes on into the next child of its worker's deque. Elsewhere (a bound
// parent, sync_wait's loop, the manual scheduler) every child is posted, the launcher holds a
// count of its own and gives it up after the launch: if children are still running the parent
// stays suspended and the last child to end resumes it (on the parent's executor, see
// detail::wake); if they all ended during the launch, it goes on at once. The first child to fail
// (when_all) or to end at all (when_any) is recorded and the scope's stop requested, so its
// siblings are cancelled; they are still awaited. fork_tuple and fork_range hold the children of
// the variadic and the range forms.
//
// Why no wake-up is lost and no frame is touched after it dies: the parent is resumed exactly
// once, by whoever brings the countdown to zero. The launcher's own count (or, work-first, the
// count of the first child, which starts only when the launch is over) keeps it from reaching
// zero while the launch still uses the awaiter; a child that decrements without reaching zero
// touches nothing of the parent afterwards.
// Memory ordering: each decrement is acq_rel, so everything every child did (its outcome, its
// destructors) happens-before the parent resumes, through the RMW chain and the wake's post.
#pragma once

#include <array>
#include <atomic>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <new>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "shoal/detail/fork.hpp"
#include "shoal/frame_allocator.hpp"
#include "shoal/task.hpp"

namespace shoal::detail {

class join_all final : public fork_scope {
 public:
  enum class stop_on : std::uint8_t { first_failure, first_end };
  static constexpr std::size_t none = static_cast<std::size_t>(-1);

  explicit join_all(stop_on policy) noexcept : fork_scope(&on_end), policy_(policy) {}

  // The parent is suspending to launch `children`: takes its env and where it resumes. On a pool
  // worker, with the parent unbound, the launch is work-first (see inline_last).
  template <class Promise>
  void begin(std::coroutine_handle<Promise> parent, std::size_t children) {
    target_ = fork_target_of(parent);
    open(env_copy_of(parent));
    trace_through(parent);
    parent_ = parent;
    inline_first_ = !target_.pinned && target_.where->fork_support() != nullptr;
    // relaxed: published to the children by the pushes and posts that launch them. The
    // launcher holds a count of its own unless the first child runs inline: that child cannot
    // end before the launch is over, so its count is the launcher's.
    pending_.store(children + (inline_first_ ? 0 : 1), std::memory_order_relaxed);
  }
  // True: every child but the first goes into this worker's fork deque (the second on top, so
  // children start left to right), and the parent transfers into the first one at once instead
  // of posting it (prepare, not launch, for that one).
  [[nodiscard]] bool inline_first() const noexcept { return inline_first_; }
  // Makes the child ready; true when it went into this worker's fork deque.
  template <class T>
  bool launch(std::coroutine_handle<task_promise<T>> h, task_env& env, fork_node& node,
              std::size_t index) noexcept {
    return fork_scope::launch_task(h, env, node, index, target_);
  }
  template <class T>
  void prepare(std::coroutine_handle<task_promise<T>> h, task_env& env, fork_node& node,
               std::size_t index) noexcept {
    fork_scope::prepare_task(h, env, node, index, target_);
  }
  // Work-first only (inline_last): makes `n` prepared children item(0) .. item(n - 1) ready,
  // into this worker's fork deque at once when it has room for all, else one by one (posted
  // once it is full).
  template <class Item>
  void push_prepared(std::size_t n, Item item) noexcept {
    if (executor::current()->fork_support()->deque.push_all(n, item)) return;
    for (std::size_t i = 0; i < n; ++i) push_forked(target_, item(i));
  }
  // Gives up the launcher's count. True: the parent stays suspended (the last child resumes it);
  // false: every child has already ended, the parent goes on.
  bool end_launch() noexcept {
    // acq_rel: pairs with the children's decrements in on_end.
    return pending_.fetch_sub(1, std::memory_order_acq_rel) != 1;
  }

  // The child that failed first (first_failure) or ended first (first_end), or `none`.
  [[nodiscard]] std::size_t first() const noexcept {
    // relaxed: read after the countdown (acq_rel) has ordered the write.
    return first_.load(std::memory_order_relaxed);
  }

 private:
  static std::coroutine_handle<> on_end(fork_scope& scope, fork_node& child) noexcept {
    auto& self = static_cast<join_all&>(scope);
    if (child.error || self.policy_ == stop_on::first_end) self.claim_first(child.index);
    // Copies first: once the count is given up the parent may resume and destroy `self`.
    const wake_target target = self.target_;
    const std::coroutine_handle<> parent = self.parent_;
    // acq_rel: release publishes this child's outcome; the last decrement acquires all others'.
    if (self.pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      return continue_parent(target, parent);
    }
    return nullptr;
  }
  void claim_first(std::size_t index) noexcept {
    std::size_t expected = none;
    // relaxed: ordered before the parent's read by the countdown that follows (acq_rel).
    if (first_.compare_exchange_strong(expected, index, std::memory_order_relaxed)) request_stop();
  }

  stop_on policy_;
  bool inline_first_ = false;
  wake_target target_;
  std::coroutine_handle<> parent_;
  std::atomic<std::size_t> pending_{0};
  std::atomic<std::size_t> first_{none};
};

// One child of when_all / when_any: the task's own frame, started as is (no root around it),
// with the env it runs in and the node it reports its end to. Movable only before the launch
// and after the end (the launched frame points at env and node).
template <class T>
class join_child {
 public:
  explicit join_child(task<T> t) noexcept : h_(t.release()) {}
  join_child(join_child&& other) noexcept
      : h_(std::exchange(other.h_, nullptr)), env_(other.env_), node_(std::move(other.node_)) {}
  join_child& operator=(join_child&&) = delete;
  join_child(const join_child&) = delete;
  join_child& operator=(const join_child&) = delete;
  ~join_child() { destroy(); }

  // Destroys the child's frame (once it has ended, or before it was launched).
  void destroy() noexcept {
    if (h_) std::exchange(h_, nullptr).destroy();
  }

  bool launch(join_all& join, std::size_t index) noexcept {
    return join.launch(h_, env_, node_, index);
  }
  // Readies the child to be transferred into by the launcher (join_all::inline_first), or pushed
  // with its siblings (join_all::push_prepared).
  std::coroutine_handle<> prepare(join_all& join, std::size_t index) noexcept {
    join.prepare(h_, env_, node_, index);
    return h_;
  }
  [[nodiscard]] std::coroutine_handle<> handle() const noexcept { return h_; }
  [[nodiscard]] fork_node& node() noexcept { return node_; }
  [[nodiscard]] const fork_node& node() const noexcept { return node_; }

  // The child's value (moved out), or its exception rethrown. Only after it ended.
  fork_value_t<T> take() {
    if constexpr (std::is_void_v<T>) {
      h_.promise().result().take();
      return {};
    } else {
      return h_.promise().result().take();
    }
  }

 private:
  std::coroutine_handle<task_promise<T>> h_;
  task_env env_;
  fork_node node_;
};

// The children of when_all(a, b, ...) / when_any(a, b, ...).
template <class... Ts>
class fork_tuple {
 public:
  using values = std::tuple<fork_value_t<Ts>...>;
  using one_value = std::variant<fork_value_t<Ts>...>;

  static_assert((!std::is_reference_v<Ts> && ...),
                "shoal: children of when_all/when_any return values, not references");
  explicit fork_tuple(task<Ts>... tasks) : children_(join_child<Ts>(std::move(tasks))...) {}

  [[nodiscard]] static constexpr std::size_t size() noexcept { return sizeof...(Ts); }
  void launch_all(join_all& join) noexcept { launch_all(join, indices{}); }
  // Work-first launch: readies every child, pushes children n-1 .. 1 onto the fork deque (so
  // the worker takes child 1 next, and children start left to right as when posted) and returns
  // child 0, to be transferred into. True in *pushed when some went into the deque.
  std::coroutine_handle<> launch_all_but_first(join_all& join, bool* pushed) noexcept {
    return launch_all_but_first(join, pushed, indices{});
  }
  [[nodiscard]] const fork_node& node(std::size_t i) const noexcept { return *nodes(indices{})[i]; }
  void destroy_all() noexcept {
    std::apply([](auto&... child) { (child.destroy(), ...); }, children_);
  }
  // Every child's value, in order. Only when none failed.
  values take_all() { return take_all(indices{}); }
  // Child i's value, as the i-th alternative.
  one_value take_one(std::size_t i) { return take_one(i, indices{}); }

 private:
  using indices = std::index_sequence_for<Ts...>;

  template <std::size_t... I>
  void launch_all(join_all& join, std::index_sequence<I...>) noexcept {
    (std::get<I>(children_).launch(join, I), ...);
  }
  template <std::size_t... I>
  std::coroutine_handle<> launch_all_but_first(join_all& join, bool* pushed,
                                               std::index_sequence<I...>) noexcept {
    if constexpr (sizeof...(Ts) == 0) {
      return nullptr;  // never called: when_all() is ready at once
    } else {
      const std::array<std::coroutine_handle<>, sizeof...(Ts)> handles{
          std::get<I>(children_).prepare(join, I)...};
      constexpr std::size_t rest = sizeof...(Ts) - 1;
      if constexpr (rest > 0) {
        join.push_prepared(rest, [&handles](std::size_t i) { return handles[rest - i]; });
      }
      *pushed = rest > 0;
      return handles[0];
    }
  }
  template <std::size_t... I>
  std::array<const fork_node*, sizeof...(Ts)> nodes(std::index_sequence<I...>) const noexcept {
    return {&std::get<I>(children_).node()...};
  }
  template <std::size_t... I>
  values take_all(std::index_sequence<I...>) {
    return values(std::get<I>(children_).take()...);
  }
  template <std::size_t... I>
  one_value take_one(std::size_t i, std::index_sequence<I...>) {
    using taker = one_value (*)(fork_tuple&);
    static constexpr std::array<taker, sizeof...(Ts)> takers{[](fork_tuple& self) {
      return one_value(std::in_place_index<I>, std::get<I>(self.children_).take());
    }...};
    return takers[i](*this);
  }

  std::tuple<join_child<Ts>...> children_;
};

// A block of `size` E's from the frame allocator (shoal/frame_allocator.hpp: recycled per
// thread, so a when_all of a vector costs no system allocation in steady state), each made from
// one element of a range by E's constructor, destroyed in reverse order with the block.
template <class E>
class frame_array {
 public:
  template <class Range>
  frame_array(std::in_place_t /*tag*/, Range& from)
      : size_(std::size(from)),
        items_(static_cast<E*>(size_ == 0 ? nullptr : frame_allocate(bytes()))) {
    std::size_t made = 0;
    try {
      for (auto& x : from) {
        new (items_ + made) E(std::move(x));
        ++made;
      }
    } catch (...) {
      destroy(made);
      throw;
    }
  }
  frame_array(frame_array&& other) noexcept
      : size_(std::exchange(other.size_, 0)), items_(std::exchange(other.items_, nullptr)) {}
  frame_array(const frame_array&) = delete;
  frame_array& operator=(const frame_array&) = delete;
  frame_array& operator=(frame_array&&) = delete;
  ~frame_array() { destroy(size_); }

  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  E& operator[](std::size_t i) noexcept { return items_[i]; }
  const E& operator[](std::size_t i) const noexcept { return items_[i]; }
  E* begin() noexcept { return items_; }
  E* end() noexcept { return items_ + size_; }

 private:
  [[nodiscard]] std::size_t bytes() const noexcept { return size_ * sizeof(E); }
  void destroy(std::size_t made) noexcept {
    while (made > 0) items_[--made].~E();
    if (items_ != nullptr) frame_deallocate(items_, bytes());
  }

  std::size_t size_;
  E* items_;
};

// The children of when_all(vector) / when_any(vector): one block of join_child from the frame
// allocator; the vector's tasks are moved into it.
template <class T>
class fork_range {
 public:
  using values = std::conditional_t<std::is_void_v<T>, void, std::vector<T>>;
  using one_value = fork_value_t<T>;

  static_assert(!std::is_reference_v<T>,
                "shoal: children of when_all/when_any return values, not references");
  explicit fork_range(std::vector<task<T>> tasks) : children_(std::in_place, tasks) {}

  [[nodiscard]] std::size_t size() const noexcept { return children_.size(); }
  void launch_all(join_all& join) noexcept {
    for (std::size_t i = 0; i < children_.size(); ++i) children_[i].launch(join, i);
  }
  std::coroutine_handle<> launch_all_but_first(join_all& join, bool* pushed) noexcept {
    const std::size_t rest = children_.size() - 1;
    for (std::size_t i = 0; i <= rest; ++i) children_[i].prepare(join, i);
    join.push_prepared(rest, [this, rest](std::size_t i) { return children_[rest - i].handle(); });
    *pushed = rest > 0;
    return children_[0].handle();
  }
  [[nodiscard]] const fork_node& node(std::size_t i) const noexcept { return children_[i].node(); }
  void destroy_all() noexcept {
    for (join_child<T>& child : children_) child.destroy();
  }
  values take_all() {
    if constexpr (!std::is_void_v<T>) {
      std::vector<T> out;
      out.reserve(children_.size());
      for (join_child<T>& child : children_) out.push_back(child.take());
      return out;
    }
  }
  one_value take_one(std::size_t i) { return children_[i].take(); }

 private:
  frame_array<join_child<T>> children_;
};

// The ended children, handed to await_resume: their frames are destroyed when it goes, after their
// outcomes were taken (so no child frame outlives the await, whatever await_resume throws).
template <class Children>
class ended_children {
 public:
  explicit ended_children(Children& children) noexcept : children_(&children) {}
  ended_children(const ended_children&) = delete;
  ended_children& operator=(const ended_children&) = delete;
  ~ended_children() { children_->destroy_all(); }
  Children& operator*() const noexcept { return *children_; }
  Children* operator->() const noexcept { return children_; }

 private:
  Children* children_;
};

// Launches the children when the parent suspends; when_all / when_any add await_resume. The
// children stay in the awaitable (fork_awaitable), which lives until the end of the co_await
// expression: the awaiter refers to them, nothing is moved.
template <class Children>
class join_all_awaiter {
 public:
  join_all_awaiter(Children& children, join_all::stop_on policy) noexcept
      : children_(children), join_(policy) {}
  join_all_awaiter(const join_all_awaiter&) = delete;
  join_all_awaiter& operator=(const join_all_awaiter&) = delete;

  bool await_ready() const noexcept { return children_.size() == 0; }
  // Work-first on a pool worker: every child but the first into the worker's fork deque, then
  // straight into the first one; elsewhere every child posted, and the parent goes on at once if
  // they all ended during the launch. Nothing of the awaiter is touched after the transfer.
  template <class Promise>
  std::coroutine_handle<> await_suspend(std::coroutine_handle<Promise> parent) {
    join_.begin(parent, children_.size());
    if (join_.inline_first()) {
      bool pushed = false;
      const std::coroutine_handle<> first = children_.launch_all_but_first(join_, &pushed);
      if (pushed) notify_forked();
      return transfer(first);
    }
    children_.launch_all(join_);
    if (join_.end_launch()) return std::noop_coroutine();
    return transfer(parent);  // every child ended during the launch (through the resume loop)
  }

 protected:
  ~join_all_awaiter() = default;

  // The ended children, destroyed when the result goes.
  ended_children<Children> end_children() noexcept { return ended_children<Children>(children_); }
  [[nodiscard]] std::size_t first() const noexcept { return join_.first(); }

 private:
  Children& children_;
  join_all join_;
};

// What when_all / when_any return: holds the children until awaited (once, as an rvalue).
template <template <class> class Awaiter, class Children>
class [[nodiscard]] fork_awaitable {
 public:
  // The children are made in place (from the tasks, or the vector of tasks), never moved after.
  template <class... Args>
  explicit fork_awaitable(std::in_place_t /*tag*/, Args&&... args)
      : children_(std::forward<Args>(args)...) {}
  // Movable until awaited (sync_wait takes it by value; the awaiter then refers to the moved-to
  // children, which stay put until the co_await ends).
  fork_awaitable(fork_awaitable&&) noexcept = default;
  fork_awaitable(const fork_awaitable&) = delete;
  fork_awaitable& operator=(const fork_awaitable&) = delete;
  fork_awaitable& operator=(fork_awaitable&&) = delete;
  ~fork_awaitable() = default;
  // The awaiter holds the join state and refers to the children held here.
  Awaiter<Children> operator co_await() && noexcept { return Awaiter<Children>(children_); }

 private:
  Children children_;
};

}  // namespace shoal::detail
