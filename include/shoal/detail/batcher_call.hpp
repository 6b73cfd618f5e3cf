// SPDX-License-Identifier: Apache-2.0
// shoal/detail/batcher_call.hpp: the awaiter of one batched call, `co_await batcher(arg)`.
//
// The awaiter lives in the caller's frame and is the caller's whole footprint in the batcher:
// its argument waits here until it joins the batch, its timer node (when it holds the batch's
// max-wait timer), its stop callback and its link in the list of callers to resume are all
// members, so a call allocates nothing. It holds no result: the bulk function's results stay in
// the batch, and await_resume moves the caller's item from there into the value it returns (one
// move); the batch's last reader (an atomic count: callers resume on their own executors)
// recycles it.
//
// Exceptions: await_suspend throws only before the call is in a batch (join undoes its own
// partial work); once it is in, nothing throws: a timer the executor cannot arm flushes the
// batch at once instead.
//
// The max-wait timer is armed by one caller of the batch, on its own executor. When that caller
// leaves the batch (cancelled) before the deadline, its await_resume, on that executor, hands
// the timer to the next caller of the same executor still in the batch; when there is none, it
// flushes the batch at once (another executor's timers can only be armed on its own thread).
//
// Resumption: a caller always resumes on the executor it suspended on. A completion running on
// that executor's own thread resumes it directly (resume_here below, after the completion let go
// of the batcher); any other completion posts it pinned there. Neither can resume it while its
// await_suspend still runs: a runner on its thread starts only after await_suspend returned
// (symmetric transfer, or a post), and a post to its executor waits for its thread.
//
// Stop callbacks, one per batch and stop: registering a callback costs two lock round trips on
// the stop's state, so the callers of one batch that share a stop (a token; the children of one
// when_all, one task_group: their scope's lazy stop, whose callbacks need no std::stop_token,
// host_stop_callback.hpp) share one. The first of them to join becomes its
// host (its awaiter holds the callback, registered after it joined, outside the batcher's lock);
// the others are covered by it. The host's callback, while the batch fills, removes the host and
// every caller it covers from the batch under the lock and posts them; once the batch is flushed
// it does nothing, and the completion reads each caller's stop instead (stop_requested() then:
// nullopt). So a callback never touches a covered caller after its batch left the current one,
// and the host, which outlives its callback (await_resume resets it, waiting for a run elsewhere),
// is the only frame it reads.
#pragma once

#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <type_traits>
#include <utility>

#include "shoal/detail/batch_core.hpp"
#include "shoal/detail/host_stop_callback.hpp"
#include "shoal/detail/task_env.hpp"
#include "shoal/detail/timer_node.hpp"
#include "shoal/detail/transfer.hpp"
#include "shoal/executor.hpp"

namespace shoal::detail {

template <class Arg, class R>
class batcher_state;
template <class Arg, class R>
struct batch;
template <class State>
struct batch_slot;

// The part of a batched call's awaiter both batchers share: the state it joins, and its
// argument, held until it joins. Movable until awaited (so it can be passed along, e.g. to
// with_stop_token), never after.
template <class State, class Arg>
class batch_call_base {
 public:
  using state_type = State;
  using value_type = typename item_traits<typename State::result_type>::value_type;

  batch_call_base(const batch_call_base&) = delete;
  batch_call_base& operator=(batch_call_base&&) = delete;
  batch_call_base& operator=(const batch_call_base&) = delete;
  bool await_ready() const noexcept { return false; }

 protected:
  template <class A>
  batch_call_base(State& state, A&& arg) noexcept(std::is_nothrow_constructible_v<Arg, A&&>)
      : state_(&state), arg_(std::forward<A>(arg)) {}
  batch_call_base(batch_call_base&& other) noexcept(std::is_nothrow_move_constructible_v<Arg>)
      : state_(other.state_), arg_(std::move(other.arg_)) {}
  ~batch_call_base() = default;

  State* state_;
  Arg arg_;  // moved into the batch when the call joins it
};

// Releases a caller's batch when its item has been taken (or its exception copied): the batch
// has one reader less (State::release; its last reader recycles it).
template <class State, class Batch>
struct batch_release {
  State* state;
  Batch* batch;
  batch_release(State* s, Batch* b) noexcept : state(s), batch(b) {}
  batch_release(const batch_release&) = delete;
  batch_release& operator=(const batch_release&) = delete;
  ~batch_release() { state->release(*batch); }
};

// A caller waiting to be resumed on this thread (intrusive: lives in the caller's awaiter).
struct resume_link {
  resume_link* next = nullptr;
  std::coroutine_handle<> handle;
};

// The callers completions on this thread handed over, and the executor resuming them.
struct local_resume_queue {
  resume_link* head = nullptr;
  resume_link* tail = nullptr;
  executor* draining = nullptr;  // non-null while resume_here's loop runs on this thread
};
inline thread_local local_resume_queue local_resumes;

// How many callers one drain resumes directly before it posts the rest (so a loop of batches
// that keep filling on one executor cannot keep its timers, I/O and other work waiting).
inline constexpr std::size_t resume_budget = 1024;

// The executor whose callers a completion running now may hand to resume_here: this thread's,
// unless a drain of another executor (a nested sync_wait) is active here; then none (null). Read
// it once per completion: resuming nobody meanwhile, the completion changes neither.
inline const executor* resumable_executor() noexcept {
  const executor* here = executor::current();
  const executor* draining = local_resumes.draining;
  return draining == nullptr || draining == here ? here : nullptr;
}

// True when a completion running now may hand a caller of `owner` to resume_here.
inline bool resumable_here(const executor* owner) noexcept {
  return owner != nullptr && owner == resumable_executor();
}

// Resumes first..last (linked by next), in order, on this thread, and whatever nested
// completions append meanwhile; a nested call only appends (the stack never grows with the
// number of batches). Call it last: the resumed callers may destroy the batcher.
inline void resume_here(resume_link* first, resume_link* last) noexcept {
  local_resume_queue& q = local_resumes;
  if (q.tail != nullptr) {
    q.tail->next = first;
  } else {
    q.head = first;
  }
  q.tail = last;
  if (q.draining != nullptr) return;  // the drain below us on this thread resumes them
  executor* const here = executor::current();
  q.draining = here;
  for (std::size_t n = 0; q.head != nullptr; ++n) {
    resume_link* l = q.head;
    q.head = l->next;
    if (q.head == nullptr) q.tail = nullptr;
    const std::coroutine_handle<> h = l->handle;  // l dies with the caller's frame
    if (n < resume_budget) {
      resume(h);
    } else {
      here->post(h, true);
    }
  }
  q.draining = nullptr;
}

template <class Arg, class R>
class batch_call : public batch_call_base<batcher_state<Arg, R>, Arg> {
  using base = batch_call_base<batcher_state<Arg, R>, Arg>;
  using base::arg_;
  using base::state_;

 public:
  using state_type = batcher_state<Arg, R>;
  using batch_type = batch<Arg, R>;
  using value_type = typename base::value_type;

  batch_call(state_type& state, Arg&& arg) noexcept(std::is_nothrow_move_constructible_v<Arg>)
      : base(state, std::move(arg)) {}
  batch_call(batch_call&& other) noexcept(std::is_nothrow_move_constructible_v<Arg>)
      : base(std::move(other)) {}

  template <class Promise>
  std::coroutine_handle<> await_suspend(std::coroutine_handle<Promise> h) {
    owner_ = executor::current();
    if (owner_ == nullptr) throw std::logic_error("shoal: batcher awaited outside any executor");
    const task_env* env = env_of(h);
    if (env != nullptr) {
      // The chain's stop by reference: a fork scope's lazy stop stays lazy (a host's callback
      // registers on the scope itself, host_stop_callback.hpp).
      chain_stop_ = env->stop;
      if (chain_stop_.stop_requested()) {
        cancelled_ = true;  // cancelled before it began: never joins a batch
        return transfer(h);
      }
    }
    handle_ = h;
    auto joined = state_->join(*this);
    // From here nothing throws: the call is in the batch, and an exception would leave it there
    // dangling. Nothing below can race with our resumption either: it is posted pinned to
    // owner_, whose thread is this one.
    if (joined.register_idle != nullptr) state_->register_idle(*joined.register_idle);
    if (joined.hold_timer && !try_arm_timer(joined.deadline)) {
      joined.runner = state_->flush_unarmed(*this);  // early rather than never
    }
    // A batch this call filled is flushed already: its completion reads the token.
    if (joined.host_stop && !joined.runner) stop_.emplace(chain_stop_, on_stop{this});
    return transfer(joined.runner);
  }

  // The item's value; nullopt when the call was cancelled. Rethrows the item's or the bulk
  // call's exception.
  std::optional<value_type> await_resume() {
    stop_.reset();  // a host's: waits for its callback running on another thread
    // Still armed: this call left its batch before the deadline (cancelled); the batch's timer
    // passes to another of its callers.
    if (timer_armed_ && owner_->cancel_timer(node_)) state_->timer_holder_left(*this);
    if (sent_ == nullptr) [[unlikely]] {
      return std::nullopt;  // left its batch before it was sent, or never joined one
    }
    return take();
  }

 private:
  friend state_type;

  struct on_stop {
    batch_call* self;
    void operator()() const noexcept { self->state_->cancel(*self); }
  };
  struct node_with_owner : timer_node {
    batch_call* self = nullptr;
  };
  static void on_fire(timer_node& node) noexcept {
    batch_call& self = *static_cast<node_with_owner&>(node).self;
    self.state_->on_timer(self);
  }

  // On owner_'s thread. False when the executor could not arm it (out of memory).
  bool try_arm_timer(time_point deadline) noexcept {
    node_.deadline = deadline;
    node_.fire = &on_fire;
    node_.self = this;
    try {
      owner_->add_timer(node_);
    } catch (...) {
      return false;
    }
    timer_armed_ = true;
    return true;
  }

  using release_on_exit = batch_release<state_type, batch_type>;

  // The item moved from the batch's results into the returned optional (one move), or the
  // call's or the item's exception, or nullopt when its stop was requested during the bulk call
  // (read at the completion); then the batch has one reader less.
  std::optional<value_type> take() {
    const release_on_exit release(state_, sent_);
    if (cancelled_) [[unlikely]] {
      return std::nullopt;
    }
    if (sent_->failure) [[unlikely]] {
      std::rethrow_exception(sent_->failure);
    }
    return take_item<R>(std::move(sent_->results[index_]));
  }

  // Completion of a sent call (bulk call returned): it reads its item from b as it resumes,
  // unless its stop was requested meanwhile. Then either posts it pinned to its executor (the
  // last touch of *this), or, when `local`, links it for resume_here and returns its link.
  resume_link* finish_sent(batch_type& b, bool local) noexcept {
    sent_ = &b;  // index_ is its place in b.callers, hence in b.results
    if (chain_stop_.stop_requested()) cancelled_ = true;
    if (!local) {
      owner_->post(handle_, true);  // pinned: resumes on its own executor
      return nullptr;
    }
    link_.next = nullptr;
    link_.handle = handle_;
    return &link_;
  }
  // From its host's stop callback, the call having been removed from the current batch.
  void finish_cancelled() noexcept {
    cancelled_ = true;
    owner_->post(handle_, true);
  }

  executor* owner_ = nullptr;
  std::coroutine_handle<> handle_;
  std::size_t index_ = 0;                   // position in the current batch; under state's lock
  std::uint64_t batch_seq_ = 0;             // which batch it joined; under state's lock
  batch_slot<state_type>* slot_ = nullptr;  // the owner's idle slot; under state's lock
  batch_type* sent_ = nullptr;  // the batch it reads its item from, once sent and returned
  bool cancelled_ = false;
  bool timer_armed_ = false;
  stop_ref chain_stop_;         // the chain's stop (by default a token never stopped)
  batch_call* host_ = nullptr;  // whose stop callback covers it (itself when host); under lock
  batch_call* next_cancelled_ = nullptr;  // removed together by a host's callback; under lock
  node_with_owner node_;
  resume_link link_;
  host_stop_callback<on_stop> stop_;  // a host's only
};

}  // namespace shoal::detail
