// SPDX-License-Identifier: Apache-2.0
// shoal/detail/future_state.hpp: the shared state behind shoal::future and shoal::promise.
//
// What: one heap object per future (per step of a chain), reference counted by every future,
// promise and pending operation that points at it. It holds the fill status, the value or the
// failure (in place, no second allocation), and a lock-free stack of continuations: nodes that
// run once, when the state is filled. A continuation is not allocated on its own: the node of a
// transformation lives inside the state that transformation produces (future_steps.hpp), the
// node of a co_await inside the awaiter, in the coroutine frame. Only on_success/on_failure/
// on_finished callbacks and blocking waits allocate a node of their own.
//
// Protocol:
//   fill:     status pending -> filling (CAS: the one winner), construct the value or failure,
//             status -> succeeded/failed (release), then take the continuation stack (exchange
//             with the `completed` sentinel, acq_rel) and fire every node in registration order.
//   register: push a node with a CAS unless the stack is the sentinel; then the state is
//             complete, and the caller fires the node itself (add() returns false).
// A node is fired exactly once, on the filling thread or on the registering thread.
//
// Flat completion: a continuation that fills another state fires that state's continuations
// from inside its own. Past `max_inline_fill_depth` nested fills on a thread, further fills park
// the state on a thread-local queue that the outermost fill drains, so a chain of any length
// completes in bounded stack.
//
// Lifetime: an unfilled state is always referenced by whoever will fill it (a promise, the node
// of the step that computes it, a running spawn_future job), so a state a node is registered on
// outlives the node's firing. A state is freed by the last release(), into the frame allocator.
//
// Thread-safety: fill, register, read status from any thread. The value/failure may be read once
// the status is observed (acquire) as succeeded/failed, and is never written again.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <new>
#include <optional>
#include <type_traits>
#include <utility>

#include "shoal/detail/frame_class.hpp"
#include "shoal/frame_allocator.hpp"
#include "shoal/future_failure.hpp"

namespace shoal::detail {

enum class fill_status : std::uint8_t { pending, filling, succeeded, failed };

class future_state_base;

// Nested fills on this thread (see "Flat completion" above).
struct fill_queue {
  future_state_base* head = nullptr;
  future_state_base* tail = nullptr;
  int depth = 0;
};
inline thread_local fill_queue fill_trampoline;
inline constexpr int max_inline_fill_depth = 16;

class future_state_base {
 public:
  static void* operator new(std::size_t size) { return frame_allocate_sized(size); }
  static void* operator new(std::size_t size, std::align_val_t alignment) {
    return frame_allocate(size, alignment);
  }
  static void operator delete(void* p, std::size_t size) noexcept {
    frame_deallocate_sized(p, size);
  }
  static void operator delete(void* p, std::size_t size, std::align_val_t alignment) noexcept {
    frame_deallocate(p, size, alignment);
  }

  future_state_base() noexcept = default;
  future_state_base(const future_state_base&) = delete;
  future_state_base& operator=(const future_state_base&) = delete;
  future_state_base(future_state_base&&) = delete;
  future_state_base& operator=(future_state_base&&) = delete;

  void add_ref() noexcept { refs_.fetch_add(1, std::memory_order_relaxed); }
  // add_ref() on a state no other thread can see yet (its maker's, before it is handed out): a
  // plain store instead of a locked read-modify-write.
  void add_ref_unshared() noexcept {
    refs_.store(refs_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  void release() noexcept {
    // The caller's reference is the only one: nobody else can take one from it, so no atomic
    // read-modify-write is needed (acquire: pairs with the others' fetch_sub below, as would the
    // fetch_sub's own acquire). Else acq_rel: the last owner sees every write the others made
    // before letting go.
    if (unique() || refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
  // True when the caller's reference is the only one (nothing else can read the value).
  [[nodiscard]] bool unique() const noexcept { return refs_.load(std::memory_order_acquire) == 1; }

  void add_promise() noexcept { promises_.fetch_add(1, std::memory_order_relaxed); }
  // True when the caller held the last promise.
  bool drop_promise() noexcept { return promises_.fetch_sub(1, std::memory_order_acq_rel) == 1; }

  [[nodiscard]] fill_status status() const noexcept {
    return status_.load(std::memory_order_acquire);
  }
  [[nodiscard]] bool completed() const noexcept {
    const fill_status s = status();
    return s == fill_status::succeeded || s == fill_status::failed;
  }
  [[nodiscard]] bool succeeded() const noexcept { return status() == fill_status::succeeded; }
  [[nodiscard]] bool failed() const noexcept { return status() == fill_status::failed; }

  // What cancel() asks of the provider besides filling (spawn_future: request stop).
  virtual void on_cancel() noexcept {}

 protected:
  virtual ~future_state_base() = default;

  // Wins the right to fill; false when another fill came first.
  bool claim() noexcept {
    fill_status expected = fill_status::pending;
    return status_.compare_exchange_strong(expected, fill_status::filling,
                                           std::memory_order_acq_rel, std::memory_order_relaxed);
  }
  // After the value or failure is in place: makes it visible and fires the continuations.
  void publish(fill_status outcome) noexcept {
    status_.store(outcome, std::memory_order_release);
    fill_queue& q = fill_trampoline;
    if (q.depth >= max_inline_fill_depth) {
      add_ref();  // held until the outermost fill has run this state's continuations
      deferred_next_ = nullptr;
      if (q.tail != nullptr) {
        q.tail->deferred_next_ = this;
      } else {
        q.head = this;
      }
      q.tail = this;
      return;
    }
    ++q.depth;
    run_callbacks();
    if (q.depth == 1) {
      while (q.head != nullptr) {
        future_state_base* next = q.head;
        q.head = next->deferred_next_;
        if (q.head == nullptr) q.tail = nullptr;
        next->run_callbacks();
        next->release();
      }
    }
    --q.depth;
  }
  [[nodiscard]] fill_status status_relaxed() const noexcept {
    return status_.load(std::memory_order_relaxed);
  }

 private:
  virtual void run_callbacks() noexcept = 0;

  std::atomic<std::uint32_t> refs_{1};
  std::atomic<std::uint32_t> promises_{0};
  std::atomic<fill_status> status_{fill_status::pending};
  future_state_base* deferred_next_ = nullptr;
};

template <class T, class E>
class future_state;

// One-shot listener of a future_state<T, E>. `fire` is called once, when the state is filled,
// with the node and the state; it may free the node (read `next` before calling it).
template <class T, class E>
struct continuation {
  using fire_fn = void (*)(continuation& self, future_state<T, E>& source) noexcept;
  explicit continuation(fire_fn f) noexcept : fire(f) {}
  fire_fn fire;
  continuation* next = nullptr;
};

// A continuation playing one of several roles in one object (Role tells them apart when an
// object listens to two states of the same type).
template <class T, class E, int Role>
struct continuation_as : continuation<T, E> {
  using continuation<T, E>::continuation;
  continuation<T, E>* as_node() noexcept { return this; }
};

template <class T, class E>
class future_state : public future_state_base {
 public:
  using node = continuation<T, E>;

  future_state() noexcept {}  // NOLINT(modernize-use-equals-default): the union stays empty
  future_state(const future_state&) = delete;
  future_state& operator=(const future_state&) = delete;
  future_state(future_state&&) = delete;
  future_state& operator=(future_state&&) = delete;

  // Fills with a value constructed from `args`; false when already filled. A constructor that
  // throws fills with the failure made from its exception instead (true: this call filled it).
  template <class... Args>
  bool succeed(Args&&... args) noexcept {
    if (!claim()) return false;
    try {
      ::new (static_cast<void*>(&value_)) T(std::forward<Args>(args)...);
    } catch (...) {
      emplace_failure(failure_traits<E>::from_exception(std::current_exception()));
      return true;
    }
    publish(fill_status::succeeded);
    return true;
  }
  // Fills with a failure constructed from `args`; false when already filled.
  template <class... Args>
  bool fail(Args&&... args) noexcept {
    if (!claim()) return false;
    emplace_failure(std::forward<Args>(args)...);
    return true;
  }

  // Registers `c`; false when the state is already complete (the caller then fires it).
  bool add(node* c) noexcept {
    node* head = callbacks_.load(std::memory_order_acquire);
    do {
      if (head == &closed) return false;
      c->next = head;
    } while (!callbacks_.compare_exchange_weak(head, c, std::memory_order_release,
                                               std::memory_order_acquire));
    return true;
  }
  // Registers `c`, or fires it here when the state is already complete.
  void then(node* c) noexcept {
    if (!add(c)) c->fire(*c, *this);
  }
  // True when the caller holds the only reference and no continuation is registered: nothing
  // can ever read the outcome, so its provider may skip filling it (spawn_future's job of a
  // dropped future). acquire: pairs with the releases of the handles that registered nodes and
  // let go (release()'s acq_rel), so a node pushed before its handle went is seen here.
  [[nodiscard]] bool unobserved() const noexcept {
    return unique() && callbacks_.load(std::memory_order_acquire) == nullptr;
  }

  // Only once succeeded() / failed() was observed.
  [[nodiscard]] const T& value() const noexcept { return value_; }
  [[nodiscard]] T& value() noexcept { return value_; }
  [[nodiscard]] const E& failure() const noexcept { return failure_; }

 protected:
  ~future_state() override {
    switch (status_relaxed()) {  // the last release() synchronised with the fill
      case fill_status::succeeded:
        value_.~T();
        break;
      case fill_status::failed:
        failure_.~E();
        break;
      default:
        break;
    }
  }

 private:
  template <class... Args>
  void emplace_failure(Args&&... args) noexcept {
    ::new (static_cast<void*>(&failure_)) E(std::forward<Args>(args)...);  // throws: terminate
    publish(fill_status::failed);
  }

  void run_callbacks() noexcept override {
    node* list = callbacks_.exchange(&closed, std::memory_order_acq_rel);
    node* ordered = nullptr;  // the stack is newest first: reverse it
    while (list != nullptr) {
      node* next = list->next;
      list->next = ordered;
      ordered = list;
      list = next;
    }
    while (ordered != nullptr) {
      node* next = ordered->next;  // fire may re-register or free the node
      ordered->fire(*ordered, *this);
      ordered = next;
    }
  }

  inline static node closed{nullptr};  // the sentinel: the stack is closed, the state complete
  std::atomic<node*> callbacks_{nullptr};
  union {
    T value_;
    E failure_;
  };
};

// An owning pointer to a state (one reference).
template <class S>
class state_ptr {
 public:
  state_ptr() noexcept = default;
  // Takes over one reference the caller holds.
  explicit state_ptr(S* adopted) noexcept : p_(adopted) {}
  state_ptr(const state_ptr& other) noexcept : p_(other.p_) {
    if (p_ != nullptr) p_->add_ref();
  }
  state_ptr(state_ptr&& other) noexcept : p_(std::exchange(other.p_, nullptr)) {}
  state_ptr& operator=(const state_ptr& other) noexcept {
    state_ptr(other).swap(*this);
    return *this;
  }
  state_ptr& operator=(state_ptr&& other) noexcept {
    state_ptr(std::move(other)).swap(*this);
    return *this;
  }
  ~state_ptr() {
    if (p_ != nullptr) p_->release();
  }
  void swap(state_ptr& other) noexcept { std::swap(p_, other.p_); }

  [[nodiscard]] S* get() const noexcept { return p_; }
  S& operator*() const noexcept { return *p_; }
  S* operator->() const noexcept { return p_; }
  explicit operator bool() const noexcept { return p_ != nullptr; }
  // From a state_ptr to a derived state type.
  template <class D>
    requires std::is_convertible_v<D*, S*>
  state_ptr(state_ptr<D>&& other) noexcept  // NOLINT(google-explicit-constructor)
      : p_(other.release()) {}
  template <class D>
    requires std::is_convertible_v<D*, S*>
  state_ptr(const state_ptr<D>& other) noexcept  // NOLINT(google-explicit-constructor)
      : p_(other.get()) {
    if (p_ != nullptr) p_->add_ref();
  }

  // Gives the reference up to the caller.
  [[nodiscard]] S* release() noexcept { return std::exchange(p_, nullptr); }

 private:
  S* p_ = nullptr;
};

// A blocking wait on a state from a thread that is no executor's: a node of its own (shared by
// the waiter and the firing thread, freed by whichever lets go last).
template <class T, class E>
class blocking_waiter final : public continuation<T, E> {
 public:
  blocking_waiter() noexcept : continuation<T, E>(&fire_waiter) {}

  // Waits until `state` is complete or `deadline` passes; true when complete.
  template <class Clock, class Duration>
  static bool wait(future_state<T, E>& state,
                   const std::optional<std::chrono::time_point<Clock, Duration>>& deadline) {
    if (state.completed()) return true;
    auto* w = new blocking_waiter();
    if (!state.add(w)) {
      delete w;
      return true;
    }
    bool done = false;
    {
      std::unique_lock lock(w->mutex_);
      if (deadline) {
        done = w->wake_.wait_until(lock, *deadline, [w] { return w->done_; });
      } else {
        w->wake_.wait(lock, [w] { return w->done_; });
        done = true;
      }
    }
    w->let_go();
    return done;
  }

 private:
  static void fire_waiter(continuation<T, E>& self, future_state<T, E>& /*source*/) noexcept {
    auto& w = static_cast<blocking_waiter&>(self);
    {
      std::lock_guard lock(w.mutex_);
      w.done_ = true;
      w.wake_.notify_all();
    }
    w.let_go();
  }
  void let_go() noexcept {
    if (owners_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::atomic<int> owners_{2};  // the waiter and the fire
};

}  // namespace shoal::detail
