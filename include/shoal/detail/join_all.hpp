// SPDX-License-Identifier: Apache-2.0
// shoal/detail/join_all.hpp: launch every child, resume the parent when the last one has ended;
// the part when_all and when_any share.
//
// What: join_all is a join_point (detail/join_point.hpp: the env, stop and countdown every child
// shares) that launches the children. A child is its task's frame: the join points its promise
// at itself and at the shared env, nothing is copied per child. On a pool worker with the parent
// unbound, the launch is work-first: every child but the first goes into the worker's fork deque
// (detail/fork_deque.hpp), where thieves take the oldest, and the parent transfers straight into
// the first child; the last child to end goes on into the parent by symmetric transfer (on
// whichever worker of the pool ran it: detail/fork_handoff.hpp), and a child that ends first
// goes on into the next child of its worker's deque. A parent bound to the pool worker it runs on
// forks work-first too, on that worker alone: the others go into its owner-only bound stack
// (detail/bound_fork_stack.hpp: never stolen, served before its pinned queue), and its children
// end into the next one there. When the parent runs on its target otherwise (sync_wait's loop,
// the manual scheduler) the launch runs the children itself, in order, each up to its first
// suspension, and transfers into the last one: no child is posted. Elsewhere
// every child is posted, the launcher holds a count of its own and gives it up after the launch: if
// children are still running the parent stays suspended and the last child to end resumes it (on
// the parent's executor, see detail::wake); if they all ended during the launch, it goes on at
// once. fork_tuple and fork_range hold the children of the variadic and the range forms: their
// tasks, nothing else.
//
// Why no wake-up is lost and no frame is touched after it dies: the parent is resumed exactly
// once, by whoever brings the countdown to zero. The launcher's own count (or, inline first, the
// count of the child transferred into, which starts only when the launch is over) keeps it from
// reaching zero while the launch still uses the awaiter; a child that decrements without reaching
// zero touches nothing of the parent afterwards.
// Memory ordering: each decrement is acq_rel, so everything every child did (its outcome, its
// destructors) happens-before the parent resumes, through the RMW chain and the wake's post.
#pragma once

#include <array>
#include <atomic>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "shoal/detail/ended_values.hpp"
#include "shoal/detail/fork.hpp"
#include "shoal/detail/join_point.hpp"
#include "shoal/task.hpp"

namespace shoal::detail {

// The in-line launches running on this thread (join_all::ready_rest).
inline thread_local unsigned inline_launches = 0;

class join_all final : public join_point {
 public:
  // How a launch goes, decided where the parent suspends and kept in registers (not in the join,
  // where each use would be a load). `forking`: work-first, into this worker's fork support (an
  // unbound parent on a pool worker), else null. `inline_first`, true: the parent transfers into
  // the first child at once instead of making it ready (prepare, not launch, for that one); the
  // others are made ready first. Work-first: into this worker's fork deque (push_prepared), the
  // second on top, so children start left to right. Otherwise (this thread is the parent's
  // target) ready_rest: a parent bound to this pool worker pushes them onto its bound stack, the
  // second on top; on sync_wait's loop or a test scheduler the launch runs all but the last
  // itself, in order, and transfers into the last one. Only children the launch runs itself can
  // end before it is over.
  struct plan {
    fork_support* forking;
    bool inline_first;

    [[nodiscard]] static plan of(wake_target target) noexcept {
      // An unbound target is this thread's executor (wake_target::of): its fork support is
      // current_fork_support.
      fork_support* const forking = target.pinned ? nullptr : current_fork_support;
      return {forking, forking != nullptr || target.where == executor::current()};
    }
  };

  // The parent is suspending to launch `children` as `how` says: takes its env (with the join's
  // own stop) and where it resumes.
  template <class Promise>
  join_all(stop_on policy, std::coroutine_handle<Promise> parent, wake_target target,
           std::size_t children, plan how) noexcept
      : join_point(policy, target, parent, promise_of(parent), env_of(parent)) {
    // relaxed: published to the children by the pushes and posts that launch them. The
    // launcher holds a count of its own unless the first child runs inline: that child cannot
    // end before the launch is over, so its count is the launcher's (on an executor without fork
    // support the launch runs all but the last child itself, and the last, transferred into,
    // starts only when the launch is over).
    pending_.store(children + (how.inline_first ? 0 : 1), std::memory_order_relaxed);
  }
  // What prepare writes into each child's promise, taken once per launch: a launcher that
  // prepares several children through one copy keeps it in registers (the join's own fields
  // would be read again after each child's promise is written, which may alias them).
  struct child_link {
    join_point* fork;
    task_env* env;
    std::coroutine_handle<> parent;  // never resumed: for async backtraces
    promise_base* parent_promise;

    // Makes the task behind `h` a child of the join: it runs in the shared env and reports its
    // end there (final_transfer) instead of transferring to a continuation. The caller starts
    // it.
    template <class T>
    std::coroutine_handle<> prepare(std::coroutine_handle<task_promise<T>> h) const noexcept {
      promise_base& p = h.promise();
      p.fork = fork;
      p.env = env;
      p.continuation = parent;
      p.parent = parent_promise;
      return h;
    }
  };
  [[nodiscard]] child_link link() noexcept { return {this, &env_, parent_, parent_promise_}; }
  // link().prepare(h), for one child.
  template <class T>
  std::coroutine_handle<> prepare(std::coroutine_handle<task_promise<T>> h) noexcept {
    return link().prepare(h);
  }
  // prepare, then makes it ready on the parent's target; true when it went into the fork deque.
  template <class T>
  bool launch(std::coroutine_handle<task_promise<T>> h) noexcept {
    return push_forked(target_, prepare(h));
  }
  // Work-first only (`forking`: plan::forking): makes `n` prepared children item(0) ..
  // item(n - 1) ready (item(n - 1) is the second child), into this worker's fork deque at once
  // when it has room for all, else one by one (posted once it is full). item(i) is called once,
  // before child i can be seen by a thief, so it may prepare the child itself. True when there
  // were any (notify_forked).
  template <class Item>
  bool push_prepared(fork_support& forking, std::size_t n, Item item) noexcept {
    if (!forking.deque.push_all(n, item)) [[unlikely]] {
      for (std::size_t i = 0; i < n; ++i) push_forked(target_, item(i));
    }
    return n > 0;
  }
  // plan::inline_first without plan::forking (this thread is the parent's target, and the parent is
  // bound or the executor lends no fork deque): makes the n children ready and returns the one to
  // transfer into; child(i) prepares child i (0 the first) and is called once for each. A parent
  // bound to this pool worker: children 1 .. n-1 onto its bound stack, the second on top (depth
  // first, never stolen; when full, posted as below), and child 0 returned. An executor that
  // lends no fork support (sync_wait's loop, a test scheduler): children 0 .. n-2 run from here,
  // in order, each up to its first suspension or its end, and the last one is returned, so no
  // child is posted; such launches nest at most inline_launch_limit deep on a thread (a child
  // that forks in its first run), past which children 1 .. n-1 are posted, second first, and
  // child 0 returned. Called from out of line (fork_tuple, fork_range): the unbound fork's
  // inlined path stays as short as it was.
  template <class Child>
  std::coroutine_handle<> ready_rest(std::size_t n, Child child) noexcept {
    fork_support* const fs = target_.where->fork_support();
    if (fs == nullptr && inline_launches < inline_launch_limit) return run_in_line(n, child);
    const auto item = [&child, n](std::size_t i) { return child(n - 1 - i); };
    if (!target_.pinned || fs == nullptr || !fs->bound.push_all(n - 1, item)) {
      for (std::size_t i = n - 1; i-- > 0;) target_.post(item(i));
    }
    return child(0);
  }
  // Gives up the launcher's count. True: the parent stays suspended (the last child resumes it);
  // false: every child has already ended, the parent goes on.
  bool end_launch() noexcept {
    // acq_rel: pairs with the children's decrements in child_ended.
    return pending_.fetch_sub(1, std::memory_order_acq_rel) != 1;
  }

  using join_point::first;

  // How deep in-line launches (ready_rest) may nest on one thread: each level holds a few stack
  // frames while its children run.
  static constexpr unsigned inline_launch_limit = 32;

 private:
  // ready_rest on an executor without fork support. A child run here may end (not the last one,
  // which has not started: the parent cannot resume meanwhile, so the join and the children stay).
  template <class Child>
  static std::coroutine_handle<> run_in_line(std::size_t n, Child& child) noexcept {
    ++inline_launches;
    for (std::size_t i = 0; i + 1 < n; ++i) resume(child(i));
    --inline_launches;
    return child(n - 1);
  }
};

// One child of when_all / when_any: the task's own frame, started as is (no root around it).
// Owned by its fork_tuple, which destroys it (a handle, moved from: null).
template <class T>
class join_child {
 public:
  explicit join_child(task<T> t) noexcept : h_(t.release()) {}
  join_child(join_child&& other) noexcept : h_(std::exchange(other.h_, nullptr)) {}
  join_child& operator=(join_child&&) = delete;
  join_child(const join_child&) = delete;
  join_child& operator=(const join_child&) = delete;
  ~join_child() = default;

  // Destroys the child's frame, if any (never launched: the awaitable was not awaited).
  void destroy_if_any() const noexcept {
    if (h_) h_.destroy();
  }
  [[nodiscard]] std::coroutine_handle<task_promise<T>> handle() const noexcept { return h_; }

 private:
  std::coroutine_handle<task_promise<T>> h_;
};

// The value of the ended child behind `h` (moved out), or its exception rethrown.
template <class T>
fork_value_t<T> take_child(std::coroutine_handle<task_promise<T>> h) {
  if constexpr (std::is_void_v<T>) {
    h.promise().result().take();
    return {};
  } else {
    return h.promise().result().take();
  }
}

// The value of the child behind `h`, which ended with one (moved out; its outcome not tested).
template <class T>
fork_value_t<T> take_ended(std::coroutine_handle<task_promise<T>> h) noexcept(
    std::is_void_v<T> || std::is_nothrow_move_constructible_v<T>) {
  if constexpr (std::is_void_v<T>) {
    return {};
  } else {
    return std::move(h.promise().result().known_value());
  }
}

// The children of when_all(a, b, ...) / when_any(a, b, ...).
template <class... Ts>
class fork_tuple {
 public:
  using values = std::tuple<fork_value_t<Ts>...>;
  using one_value = std::variant<fork_value_t<Ts>...>;

  static_assert((!std::is_reference_v<Ts> && ...),
                "shoal: children of when_all/when_any return values, not references");
  explicit fork_tuple(task<Ts>... tasks) : children_(join_child<Ts>(std::move(tasks))...) {}
  fork_tuple(fork_tuple&&) noexcept = default;  // the moved-from children are null
  fork_tuple(const fork_tuple&) = delete;
  fork_tuple& operator=(const fork_tuple&) = delete;
  fork_tuple& operator=(fork_tuple&&) = delete;
  // The children's frames, unless destroy_all did (one test, not one per child).
  ~fork_tuple() {
    if (!destroyed_) {
      std::apply([](const auto&... child) { (child.destroy_if_any(), ...); }, children_);
    }
  }

  [[nodiscard]] static constexpr std::size_t size() noexcept { return sizeof...(Ts); }
  void launch_all(join_all& join) noexcept {
    std::apply([&join](auto&... child) { (join.launch(child.handle()), ...); }, children_);
  }
  // Launch with a child inline (join_all::plan::inline_first; `forking`: its plan::forking):
  // readies every child, makes children 1 .. n-1 ready (push_prepared: the worker takes child 1
  // next, and children start left to right) and returns child 0, to be transferred into; without
  // work-first, join_all::ready_rest decides (it may run all but the last and return that one).
  // True in *pushed when some went into the fork deque.
  [[gnu::always_inline]] std::coroutine_handle<> launch_all_but_first(join_all& join,
                                                                      fork_support* forking,
                                                                      bool* pushed) noexcept {
    if constexpr (sizeof...(Ts) == 0) {
      return nullptr;  // never called: when_all() is ready at once
    } else {
      const join_all::child_link link = join.link();
      const std::array<std::coroutine_handle<>, sizeof...(Ts)> handles = std::apply(
          [link](auto&... child) {
            return std::array<std::coroutine_handle<>, sizeof...(Ts)>{
                link.prepare(child.handle())...};
          },
          children_);
      constexpr std::size_t rest = sizeof...(Ts) - 1;
      if constexpr (rest > 0) {
        if (forking != nullptr) [[likely]] {
          *pushed = join.push_prepared(*forking, rest,
                                       [&handles](std::size_t i) { return handles[rest - i]; });
        } else {
          return ready_rest(join);
        }
      }
      return handles[0];
    }
  }
  // The position of the child whose frame is at `frame`.
  [[nodiscard]] std::size_t index_of(const void* frame) const noexcept {
    return index_of(frame, indices{});
  }
  // The exception child i ended with, or null.
  [[nodiscard]] std::exception_ptr error(std::size_t i) const noexcept {
    return error(i, indices{});
  }
  // Destroys every child's frame (all launched, all ended).
  void destroy_all() noexcept {
    std::apply([](const auto&... child) { (child.handle().destroy(), ...); }, children_);
    destroyed_ = true;
  }
  // Every child's value, in order. Only when none failed: no child's outcome is tested.
  values take_all() {
    return std::apply([](auto&... child) { return values(take_ended(child.handle())...); },
                      children_);
  }
  // Child i's value, as the i-th alternative.
  one_value take_one(std::size_t i) { return take_one(i, indices{}); }

 private:
  using indices = std::index_sequence_for<Ts...>;

  // join_all::ready_rest for the prepared children (out of the inlined launch, whose handles then
  // stay in registers): the child to transfer into.
  [[gnu::noinline]] std::coroutine_handle<> ready_rest(join_all& join) noexcept {
    const std::array<std::coroutine_handle<>, sizeof...(Ts)> handles = std::apply(
        [](auto&... child) {
          return std::array<std::coroutine_handle<>, sizeof...(Ts)>{child.handle()...};
        },
        children_);
    return join.ready_rest(sizeof...(Ts), [&handles](std::size_t i) { return handles[i]; });
  }
  template <std::size_t... I>
  std::size_t index_of([[maybe_unused]] const void* frame,
                       std::index_sequence<I...>) const noexcept {
    std::size_t found = 0;
    static_cast<void>(
        ((std::get<I>(children_).handle().address() == frame ? (found = I, true) : false) || ...));
    return found;
  }
  template <std::size_t... I>
  std::exception_ptr error([[maybe_unused]] std::size_t i,
                           std::index_sequence<I...>) const noexcept {
    std::exception_ptr e;
    static_cast<void>((
        (i == I ? (e = std::get<I>(children_).handle().promise().result().error(), true) : false) ||
        ...));
    return e;
  }
  template <std::size_t... I>
  one_value take_one(std::size_t i, std::index_sequence<I...>) {
    using taker = one_value (*)(fork_tuple&);
    static constexpr std::array<taker, sizeof...(Ts)> takers{[](fork_tuple& self) {
      return one_value(std::in_place_index<I>, take_child(std::get<I>(self.children_).handle()));
    }...};
    return takers[i](*this);
  }

  std::tuple<join_child<Ts>...> children_;
  bool destroyed_ = false;  // by destroy_all
};

// The children of when_all(range) / when_any(vector): the vector of tasks itself (moved in: no
// allocation), or for another range a task_block (detail/task_block.hpp: the tasks moved into one
// block from the frame allocator), each task still owning its frame.
template <class T, class Tasks = std::vector<task<T>>>
class fork_range {
 public:
  using values = std::conditional_t<std::is_void_v<T>, void, std::vector<T>>;
  using one_value = fork_value_t<T>;

  static_assert(!std::is_reference_v<T>,
                "shoal: children of when_all/when_any return values, not references");
  explicit fork_range(Tasks tasks) noexcept : tasks_(std::move(tasks)) {}
  // The tasks made in place from `range` (a task_block: no move of its inline tasks).
  template <class Range>
  fork_range(std::in_place_t /*tag*/, Range&& range) : tasks_(std::forward<Range>(range)) {}

  [[nodiscard]] std::size_t size() const noexcept { return tasks_.size(); }
  void launch_all(join_all& join) noexcept {
    for (const task<T>& t : tasks_) join.launch(frame_of(t));
  }
  // Each child is prepared as it is made ready, in one pass (push_prepared's item prepares it).
  [[gnu::always_inline]] std::coroutine_handle<> launch_all_but_first(join_all& join,
                                                                      fork_support* forking,
                                                                      bool* pushed) noexcept {
    const join_all::child_link link = join.link();
    const task<T>* const first = tasks_.data();
    if (forking != nullptr) [[likely]] {
      *pushed = join.push_prepared(*forking, tasks_.size() - 1, preparer(link));
    } else {
      return ready_rest(join);
    }
    return link.prepare(frame_of(*first));
  }
  [[nodiscard]] std::size_t index_of(const void* frame) const noexcept {
    std::size_t i = 0;
    while (frame_of(tasks_[i]).address() != frame) ++i;
    return i;
  }
  [[nodiscard]] std::exception_ptr error(std::size_t i) const noexcept {
    return frame_of(tasks_[i]).promise().result().error();
  }
  void destroy_all() noexcept { tasks_.clear(); }
  values take_all() {
    if constexpr (!std::is_void_v<T>) return take_ended_values<T>(tasks_);
  }
  one_value take_one(std::size_t i) { return take_child(frame_of(tasks_[i])); }

 private:
  static std::coroutine_handle<task_promise<T>> frame_of(const task<T>& t) noexcept {
    return task_access::handle(t);
  }
  // What makes child `size() - 1 - i` a child of the join and gives it, for push_prepared and
  // ready_rest (the second child last).
  [[nodiscard]] auto preparer(join_all::child_link link) const noexcept {
    return [link, tasks = tasks_.data(), rest = tasks_.size() - 1](std::size_t i) {
      return link.prepare(frame_of(tasks[rest - i]));
    };
  }
  // join_all::ready_rest for the children (out of the inlined launch): the one to transfer into.
  [[gnu::noinline]] std::coroutine_handle<> ready_rest(join_all& join) noexcept {
    return join.ready_rest(tasks_.size(),
                           [link = join.link(), tasks = tasks_.data()](std::size_t i) {
                             return link.prepare(frame_of(tasks[i]));
                           });
  }
  Tasks tasks_;
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
      : children_(children), policy_(policy) {}
  join_all_awaiter(const join_all_awaiter&) = delete;
  join_all_awaiter& operator=(const join_all_awaiter&) = delete;

  bool await_ready() const noexcept { return children_.size() == 0; }
  // When the parent runs on its target (join_all::plan::inline_first): every child but the first
  // made ready (work-first on a pool worker: into the worker's fork deque, or its bound stack when
  // the parent is bound there), then straight into the first one; on an executor without fork
  // support every child but the last run from here, then straight into the last one. Elsewhere
  // every child posted, and the parent goes on at once if they all ended during the launch.
  // Nothing of the awaiter is touched after the transfer. Always inlined into the parent's resume
  // function (with
  // env_awaiter's forwarder): no call per fork.
  template <class Promise>
  [[gnu::always_inline]] std::coroutine_handle<> await_suspend(
      std::coroutine_handle<Promise> parent) {
    const wake_target target = fork_target_of(parent);
    const join_all::plan how = join_all::plan::of(target);
    join_all& join = *::new (static_cast<void*>(&join_))
                         join_all(policy_, parent, target, children_.size(), how);
    if (how.inline_first) {
      bool pushed = false;
      const std::coroutine_handle<> first =
          children_.launch_all_but_first(join, how.forking, &pushed);
      if (pushed) notify_forked(*how.forking);
      return transfer(first);
    }
    children_.launch_all(join);
    if (join.end_launch()) return std::noop_coroutine();
    return transfer(parent);  // every child ended during the launch (through the resume loop)
  }

 protected:
  // The join, made by await_suspend, is destroyed by await_resume (end_join): await_resume always
  // follows a suspension that made it.
  ~join_all_awaiter() {}  // NOLINT(modernize-use-equals-default): the union is left alone

  // The ended children, destroyed when the result goes.
  ended_children<Children> end_children() noexcept { return ended_children<Children>(children_); }
  // Ends the join (its private envs and stop state freed: every child has ended, nothing reads
  // them) and returns the position of the child that failed first (when_all) or ended first
  // (when_any), or none. Once, first thing in await_resume, before any call that may throw.
  [[nodiscard]] std::size_t end_join() noexcept {
    if (children_.size() == 0) return none;  // no child: no join (ready at once)
    const void* frame = join_.first();
    join_.~join_all();
    return frame == nullptr ? none : children_.index_of(frame);
  }

  static constexpr std::size_t none = static_cast<std::size_t>(-1);

 private:
  Children& children_;
  join_all::stop_on policy_;
  // Made by await_suspend, in one go, and destroyed in await_resume (end_join): a
  // std::optional's tests and resets, or a flag saying it was made, cost instructions on every
  // fork. await_suspend throws only before making it; a wrapper that destroys the awaiter without
  // suspending it (fiber::await outside a fiber) never made it; a suspension that made it always
  // ends in await_resume (the last child resumes the parent).
  union {
    join_all join_;
  };
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
