// shoal/detail/join_all.hpp: launch every child, resume the parent when the last one has ended;
// the part when_all and when_any share.
//
// What: join_all is a fork_scope with a countdown of the children still running plus one for the
// launcher. The parent's await_suspend launches all children, then gives up its own count: if
// children are still running it stays suspended and the last child to end resumes it (on the
// parent's executor, see detail::wake); if they all ended during the launch (other workers ran
// them), it goes on at once. The first child to fail (when_all) or to end at all (when_any) is
// recorded and the scope's stop requested, so its siblings are cancelled; they are still awaited.
// fork_tuple and fork_range hold the children of the variadic and the range forms.
//
// Why no wake-up is lost and no frame is touched after it dies: the parent is resumed exactly
// once, by whoever brings the countdown to zero. The launcher's own count keeps it from reaching
// zero while the launch loop still uses the awaiter; a child that decrements without reaching
// zero touches nothing of the parent afterwards.
// Memory ordering: each decrement is acq_rel, so everything every child did (its outcome, its
// destructors) happens-before the parent resumes, through the RMW chain and the wake's post.
#pragma once

#include <array>
#include <atomic>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "shoal/detail/fork.hpp"
#include "shoal/task.hpp"

namespace shoal::detail {

class join_all final : public fork_scope {
 public:
  enum class stop_on : std::uint8_t { first_failure, first_end };
  static constexpr std::size_t none = static_cast<std::size_t>(-1);

  explicit join_all(stop_on policy) : fork_scope(&on_end), policy_(policy) {}  // std::bad_alloc

  // The parent is suspending to launch `children`: takes its env and where it resumes.
  template <class Promise>
  void begin(std::coroutine_handle<Promise> parent, std::size_t children) {
    target_ = fork_target_of(parent);
    open(env_copy_of(parent));
    trace_through(parent);
    parent_ = parent;
    // relaxed: published to the children by the posts that launch them.
    pending_.store(children + 1, std::memory_order_relaxed);
  }
  template <class T>
  void launch(std::coroutine_handle<task_promise<T>> h, task_env& env, fork_node& node,
              std::size_t index) noexcept {
    fork_scope::launch_task(h, env, node, index, target_);
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
  static void on_end(fork_scope& scope, fork_node& child) noexcept {
    auto& self = static_cast<join_all&>(scope);
    if (child.error || self.policy_ == stop_on::first_end) self.claim_first(child.index);
    // Copies first: once the count is given up the parent may resume and destroy `self`.
    const wake_target target = self.target_;
    const std::coroutine_handle<> parent = self.parent_;
    // acq_rel: release publishes this child's outcome; the last decrement acquires all others'.
    if (self.pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) wake(target, parent);
  }
  void claim_first(std::size_t index) noexcept {
    std::size_t expected = none;
    // relaxed: ordered before the parent's read by the countdown that follows (acq_rel).
    if (first_.compare_exchange_strong(expected, index, std::memory_order_relaxed)) request_stop();
  }

  stop_on policy_;
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
  ~join_child() {
    if (h_) h_.destroy();
  }

  void launch(join_all& join, std::size_t index) noexcept { join.launch(h_, env_, node_, index); }
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
  [[nodiscard]] const fork_node& node(std::size_t i) const noexcept { return *nodes(indices{})[i]; }
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

// The children of when_all(vector) / when_any(vector): one block of root handles.
template <class T>
class fork_range {
 public:
  using values = std::conditional_t<std::is_void_v<T>, void, std::vector<T>>;
  using one_value = fork_value_t<T>;

  static_assert(!std::is_reference_v<T>,
                "shoal: children of when_all/when_any return values, not references");
  explicit fork_range(std::vector<task<T>> tasks) {
    children_.reserve(tasks.size());
    for (task<T>& t : tasks) children_.emplace_back(std::move(t));
  }

  [[nodiscard]] std::size_t size() const noexcept { return children_.size(); }
  void launch_all(join_all& join) noexcept {
    for (std::size_t i = 0; i < children_.size(); ++i) children_[i].launch(join, i);
  }
  [[nodiscard]] const fork_node& node(std::size_t i) const noexcept { return children_[i].node(); }
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
  std::vector<join_child<T>> children_;
};

// Launches the children when the parent suspends; when_all / when_any add await_resume.
template <class Children>
class join_all_awaiter {
 public:
  join_all_awaiter(Children children, join_all::stop_on policy)
      : children_(std::move(children)), join_(policy) {}
  join_all_awaiter(const join_all_awaiter&) = delete;
  join_all_awaiter& operator=(const join_all_awaiter&) = delete;

  bool await_ready() const noexcept { return children_.size() == 0; }
  template <class Promise>
  bool await_suspend(std::coroutine_handle<Promise> parent) {
    join_.begin(parent, children_.size());
    children_.launch_all(join_);
    return join_.end_launch();
  }

 protected:
  ~join_all_awaiter() = default;

  // Hands the ended children to the caller, who destroys them when done with their outcomes
  // (so no child frame outlives the await).
  Children release_children() noexcept { return std::move(children_); }
  [[nodiscard]] std::size_t first() const noexcept { return join_.first(); }

 private:
  Children children_;
  join_all join_;
};

// What when_all / when_any return: holds the children until awaited (once, as an rvalue).
template <template <class> class Awaiter, class Children>
class [[nodiscard]] fork_awaitable {
 public:
  explicit fork_awaitable(Children children) noexcept : children_(std::move(children)) {}
  // The awaiter holds the join state (its std::stop_source allocates its shared state here).
  Awaiter<Children> operator co_await() && { return Awaiter<Children>(std::move(children_)); }

 private:
  Children children_;
};

}  // namespace shoal::detail
