// SPDX-License-Identifier: Apache-2.0
// shoal/detail/bound_batcher_call.hpp: the awaiter of one call on a worker-bound batcher,
// `co_await bound(arg)` (shoal/bound_batcher.hpp).
//
// The awaiter lives in the caller's frame and is the caller's whole footprint: its argument
// until it joins the batch, its link in the batch's list of callers (intrusive: a join pushes
// nothing), its stop callback (a host's only) and its link in the list of callers to resume.
// It holds no result: the bulk function's result vector stays in the batch, and await_resume
// moves the caller's item straight from there into the value it returns (one move); the batch's
// last reader recycles it. Everything here is touched on the home executor's thread only, except
// the stop callback, which runs on whichever thread requests the stop.
//
// Stop callbacks: one per batch and stop, as in shoal::batcher (batcher_call.hpp): the first
// caller of a stop (a token, or a fork scope's lazy stop: host_stop_callback.hpp) to join a batch
// hosts it, later callers of the same stop are covered by it.
// The callback must not touch the batch (it runs on any thread, and the batch has no lock), so
// it does the one thing that is safe from anywhere: it sets `stopped_` and posts the host's own
// coroutine, pinned to home. The host then resumes in await_resume still `joined`, and there, on
// the home thread, takes itself and the callers it covers out of the filling batch and returns
// nullopt; the covered callers are posted with nullopt.
// A host's callback lives only while its batch fills: the flush destroys it (on home; the
// destructor of std::stop_callback returns only once a callback running on another thread has
// returned, and after it none can start; the callback's writes happen-before that return), then
// reads `stopped_`: set, the host is already posted, so the flush takes the callers it covers out
// and marks the host cancelled (its post resumes it with nullopt); clear, the batch goes on with
// them. So a caller is resumed exactly once, and never before its batch's bulk call returned:
// a sent batch is never left, which keeps the contract "destroy after every call returned"
// sufficient (no runner can outlive the last caller). A stop during the bulk call is read by
// each caller as it resumes, from its own stop (on home), before it reads its item.
#pragma once

#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <stop_token>
#include <type_traits>
#include <utility>
#include <vector>

#include "shoal/detail/batch_core.hpp"
#include "shoal/detail/batcher_call.hpp"  // batch_call_base, resume_link
#include "shoal/detail/host_stop_callback.hpp"
#include "shoal/detail/task_env.hpp"
#include "shoal/detail/transfer.hpp"
#include "shoal/executor.hpp"

namespace shoal::detail {

template <class Arg, class R>
class bound_state;
template <class Arg, class R>
struct bound_batch;

template <class Arg, class R>
class bound_call : public batch_call_base<bound_state<Arg, R>, Arg> {
  using base = batch_call_base<bound_state<Arg, R>, Arg>;

 public:
  using typename base::state_type;
  using typename base::value_type;
  using batch_type = bound_batch<Arg, R>;

  template <class A>
  bound_call(state_type& state, A&& arg) noexcept(std::is_nothrow_constructible_v<Arg, A&&>)
      : base(state, std::forward<A>(arg)) {}
  bound_call(bound_call&& other) noexcept(std::is_nothrow_move_constructible_v<Arg>)
      : base(std::move(other)) {}

  template <class Promise>
  std::coroutine_handle<> await_suspend(std::coroutine_handle<Promise> h) {
    this->state_->check_home();  // throws shoal::wrong_executor before anything is touched
    const task_env* env = env_of(h);
    if (env != nullptr) {
      // The chain's stop by reference: a fork scope's lazy stop stays lazy (a host's callback
      // registers on the scope itself, host_stop_callback.hpp).
      chain_stop_ = env->stop;
      if (chain_stop_.stop_requested()) {
        phase_ = phase::cancelled;  // cancelled before it began: never joins a batch
        return transfer(h);
      }
    }
    link_.handle = h;
    return transfer(this->state_->join(*this));
  }

  // The item's value; nullopt when the call was cancelled. Rethrows the item's or the bulk
  // call's exception.
  std::optional<value_type> await_resume() {
    if (phase_ == phase::joined) [[likely]] {
      if (batch_->returned) [[likely]] {
        return take();
      }
      this->state_->leave(*this);  // a host of a filling batch, resumed by its stop callback
    }
    return std::nullopt;
  }

 private:
  friend state_type;

  // joined: in batch_ (filling, in its bulk call, or returned: batch_->returned); cancelled: it
  // left before its batch was sent, or never joined one.
  enum class phase : std::uint8_t { before, joined, cancelled };

  using release_on_exit = batch_release<state_type, batch_type>;

  // The item moved from the batch's results into the returned optional, or the call's or the
  // item's exception, or nullopt when its token was stopped during the bulk call (read now, on
  // home: the batch's stop callbacks are gone since its flush); then the batch has one reader
  // less. The common case (a plain item that moves without throwing, no stop, no failure)
  // releases the batch in line, without the guard the other cases need.
  std::optional<value_type> take() {
    using item_ref = decltype(std::move(batch_->results[index_]));
    constexpr bool plain_item =
        std::is_same_v<R, value_type> &&
        std::is_nothrow_constructible_v<std::optional<value_type>, item_ref>;
    const bool stopped = chain_stop_.stop_requested();
    if constexpr (plain_item) {
      if (!stopped && !batch_->failure) [[likely]] {
        return take_plain();
      }
    }
    const release_on_exit release(this->state_, batch_);
    if (stopped) [[unlikely]] {
      return std::nullopt;
    }
    if (batch_->failure) [[unlikely]] {
      std::rethrow_exception(batch_->failure);
    }
    return take_item<R>(std::move(batch_->results[index_]));
  }

  // take's common case. One named return only, so that g++ too constructs the item in the
  // caller's optional (NRVO): one move of the item.
  std::optional<value_type> take_plain() noexcept {
    std::optional<value_type> item(std::move(batch_->results[index_]));
    this->state_->release(*batch_);
    return item;
  }

  struct on_stop {
    bound_call* self;
    // Any thread. Touches the host only: see the header comment.
    void operator()() const noexcept {
      self->stopped_ = true;  // read on home after stop_.reset() or after this post
      self->state_->home().post(self->link_.handle, true);
    }
  };

  // Home thread, after join decided this call hosts its token's callback in a batch still
  // filling. The callback may run at once (a stop requested meanwhile): it only posts us.
  void host_stop() noexcept { stop_.emplace(chain_stop_, on_stop{this}); }

  phase phase_ = phase::before;
  // A host's: written by its stop callback (any thread), read on home after stop_.reset() or
  // after the callback's post.
  bool stopped_ = false;
  std::size_t index_ = 0;            // its argument's (and result's) index in the batch
  batch_type* batch_ = nullptr;      // the batch it joined
  bound_call* next_ = nullptr;       // the batch's callers, in arrival order
  stop_ref chain_stop_;              // the chain's stop (by default a token never stopped)
  bound_call* host_ = nullptr;       // whose stop callback covers it (itself when host)
  bound_call* next_out_ = nullptr;   // taken out together with its host
  bound_call* next_host_ = nullptr;  // the batch's hosts, while it fills
  resume_link link_;  // its handle; linked like next_ (resume_here takes the batch's chain)
  host_stop_callback<on_stop> stop_;  // a host's only: reset at the flush or by leave
};

}  // namespace shoal::detail
