// SPDX-License-Identifier: Apache-2.0
// shoal/detail/batcher_state.hpp: the shared state behind shoal/batcher.hpp.
//
// What: the batch being filled (arguments and their callers, in arrival order), recycled batch
// buffers, one idle slot per executor callers came from, the flush policy and the bulk function.
// A flush takes the current batch under the lock and starts its runner: a detached root
// coroutine (frames from the recycling frame allocator, made with the batch) that calls the bulk
// function, keeps its results (or its exception) in the batch, posts the callers of other
// executors back to their own and, last, resumes the callers of its own executor directly
// (resume_here, batcher_call.hpp). Each caller reads its own item from the batch as it resumes;
// the last reader returns the batch's buffers (capacity kept) to the free list.
//
// Idle slots: the first caller from an executor registers that executor's slot as an idle hook
// (once; it stays registered until the batcher is destroyed). The hook flushes the current batch
// when some of its callers came from that executor: they are stalled exactly when it is idle.
//
// Allocation and failure: a batch, its room in the free list and its runner's frames are made by
// the join that finds no batch being filled (join may throw std::bad_alloc, with the batch
// unchanged); the vectors grow, geometrically, before the push that needs it. So the paths that
// cannot report an error (the timer, the idle flush, the completion: all noexcept) allocate
// nothing. Per-path decisions: docs/design/batcher.md.
//
// Thread-safety: every member function may be called from any thread; `lock_` (a spin lock:
// each critical section is a few dozen instructions; the vectors and frames only allocate while
// a new batch is prepared or they grow to their largest batch, and flush_if runs under it, so it
// must be short) guards the batches, the slots' list and the counters. Memory ordering: a caller's
// argument joins under the lock, which happens-before the flush that takes it; the runner's
// delivery happens-before the caller resumes (its post, or the same thread).
#pragma once

#include <atomic>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "shoal/clock.hpp"
#include "shoal/detail/batch_core.hpp"
#include "shoal/detail/batcher_call.hpp"
#include "shoal/detail/idle_hooks.hpp"
#include "shoal/detail/spin_lock.hpp"
#include "shoal/executor.hpp"

namespace shoal::detail {

template <class Arg, class R>
struct batch {
  batch() = default;
  batch(const batch&) = delete;
  batch& operator=(const batch&) = delete;
  ~batch() {
    if (runner) runner.destroy();  // prepared, never started (the batcher is being destroyed)
  }

  std::vector<Arg> args;
  std::vector<batch_call<Arg, R>*> callers;
  std::coroutine_handle<> runner;  // prepared by its first caller; started by take
  // Once its bulk call returned (complete): what its callers read, each its own item, and how
  // many have still to read it (its callers and complete itself); the last recycles it.
  std::vector<R> results;
  std::exception_ptr failure;
  std::atomic<std::size_t> readers{0};
  batch_call<Arg, R>* timer_holder = nullptr;  // the caller whose timer flushes it
  batch_call<Arg, R>* stop_host = nullptr;     // the latest caller hosting a stop callback
  time_point deadline{};                       // when max_wait is set: first arrival + max_wait

  void clear() noexcept {
    args.clear();
    callers.clear();
    timer_holder = nullptr;
    stop_host = nullptr;
    results.clear();
    failure = nullptr;
  }
};

template <class State>
struct batch_slot : idle_hook {
  State* state = nullptr;
  executor* where = nullptr;
  std::atomic<std::size_t> waiting{0};  // callers from `where` in the current batch
  bool hooked = false;                  // claimed for registration as an idle hook; by lock
};

template <class Arg, class R>
class batcher_state {
 public:
  using call = batch_call<Arg, R>;
  using batch_type = batch<Arg, R>;
  using slot = batch_slot<batcher_state>;
  using result_type = R;
  static constexpr const char* name = "shoal::batcher";
  static constexpr bool single_thread = false;  // pending() and stats() take the lock

  struct joined {
    std::coroutine_handle<> runner;  // non-null: this call filled the batch; run it now
    slot* register_idle = nullptr;   // non-null: register this idle hook (first of its executor)
    bool host_stop = false;          // register the stop callback covering its token's callers
    bool hold_timer = false;
    time_point deadline{};
  };

  template <class Bulk>
  batcher_state(Bulk bulk, flush_policy<Arg> p) : rules_(std::move(bulk), std::move(p)) {}
  batcher_state(const batcher_state&) = delete;
  batcher_state& operator=(const batcher_state&) = delete;
  ~batcher_state() {
    for (auto& s : slots_) s->unlink();  // after this no hook runs or will run
    // Every call has returned (the batcher's contract), but a runner may still be between
    // posting its last caller and giving its buffers back: wait for it.
    for (;;) {
      {
        const spin_lock::guard lock(lock_);
        if (in_flight_ == 0) return;
      }
      std::this_thread::yield();
    }
  }

  // Adds c to the current batch. Throws (std::bad_alloc, or what flush_if throws) only with
  // the batch as it was: everything that may fail is done before c is in, or undone.
  joined join(call& c) {
    joined out;
    const spin_lock::guard lock(lock_);
    batch_type& b = prepared();
    make_room(b.args);
    make_room(b.callers);
    slot* const s = slot_for(c.owner_);
    if (b.callers.empty() && rules_.timed()) b.deadline = rules_.deadline_from(c.owner_->now());
    b.args.push_back(std::move(c.arg_));  // no reallocation; if Arg's move throws, not added
    b.callers.push_back(&c);              // no reallocation: cannot throw
    c.index_ = b.callers.size() - 1;
    c.slot_ = s;
    c.batch_seq_ = counters_.batches;
    add_waiting(*s, 1);
    const flush_rule due = due_rule(b, c);  // flush_if may throw: undone there
    // Nothing throws from here. The first call of an executor to get this far registers its
    // slot (one that failed before would have left it unregistered for good).
    if (!s->hooked) {
      s->hooked = true;
      out.register_idle = s;
    }
    out.host_stop = cover(b, c);
    if (due != nullptr) {
      out.runner = take(due);
    } else if (rules_.timed() && b.timer_holder == nullptr) {
      b.timer_holder = &c;
      out.hold_timer = true;
      out.deadline = b.deadline;
    }
    return out;
  }

  void register_idle(slot& s) noexcept { (void)s.where->add_idle_hook(s); }

  // The stop callback hosted by `host` (any thread): while its batch fills, takes the host and
  // every caller it covers out of it; once flushed, nothing (the completion reads the token).
  void cancel(call& host) noexcept {
    call* out = nullptr;  // the removed callers, in arrival order
    {
      const spin_lock::guard lock(lock_);
      if (current_ == nullptr) return;
      batch_type& b = *current_;
      if (host.index_ >= b.callers.size() || b.callers[host.index_] != &host) return;
      out = remove_covered(b, host);
    }
    while (out != nullptr) {
      call* next = out->next_cancelled_;
      out->finish_cancelled();  // the last touch of a covered caller
      out = next;
    }
  }

  // c's max-wait timer fired (on c's executor): flushes the batch c joined if it is still being
  // filled and its deadline has come (c may have left it meanwhile: the timer still counts).
  void on_timer(call& c) noexcept {
    std::coroutine_handle<> runner;
    {
      const spin_lock::guard lock(lock_);
      if (!still_filling(c) || current_->callers.empty()) return;
      if (c.owner_->now() < current_->deadline) return;  // emptied and refilled since: not due
      runner = take(&batch_counters::by_time);
    }
    c.owner_->post(runner, false);
  }

  // c, which held the max-wait timer, left its batch before the deadline (on c's executor):
  // hands the timer to the next caller of the same executor, or flushes the batch now.
  void timer_holder_left(call& c) noexcept {
    std::coroutine_handle<> runner;
    {
      const spin_lock::guard lock(lock_);
      if (!still_filling(c)) return;
      batch_type& b = *current_;
      if (b.timer_holder != nullptr || b.callers.empty()) return;  // taken over, or nobody left
      for (call* next : b.callers) {
        if (next->owner_ == c.owner_ && next->try_arm_timer(b.deadline)) {
          b.timer_holder = next;
          return;
        }
      }
      runner = take(&batch_counters::by_time);
    }
    c.owner_->post(runner, false);
  }

  // c holds the timer of its batch but could not arm it (on c's executor): the batch, flushed
  // now if c is still in it; the runner to transfer to, or null.
  std::coroutine_handle<> flush_unarmed(call& c) noexcept {
    const spin_lock::guard lock(lock_);
    if (!still_filling(c) || current_->timer_holder != &c) return nullptr;
    return take(&batch_counters::by_time);
  }

  static bool on_idle(idle_hook& hook) noexcept {
    auto& s = static_cast<slot&>(hook);
    // relaxed precheck: a stale value only delays the flush to the next idle moment, and the
    // count is re-read under the lock.
    if (s.waiting.load(std::memory_order_relaxed) == 0) return false;
    return s.state->flush_idle(s);
  }

  [[nodiscard]] const batch_rules<Arg, R>& rules() const noexcept { return rules_; }

  // From run_batch (batch_core.hpp): keeps the results (or the failure) in the batch, where each
  // caller reads its own item as it resumes, posts the callers of other executors, lets go of
  // the batch (its last reader recycles it), then resumes those of this executor here: they may
  // destroy the batcher. Allocates nothing (free_ has room for every batch ever made).
  void complete(batch_type& b, std::vector<R>& results, std::exception_ptr failure) noexcept {
    resume_link* first = nullptr;
    resume_link* last = nullptr;
    const executor* const here = resumable_executor();  // owner_ is never null
    b.results = std::move(results);
    b.failure = std::move(failure);
    // relaxed: every reader is resumed by a post or on this thread, after this.
    b.readers.store(b.callers.size() + 1, std::memory_order_relaxed);
    for (call* c : b.callers) {
      resume_link* link = c->finish_sent(b, c->owner_ == here);
      if (link == nullptr) continue;
      if (last != nullptr) {
        last->next = link;
      } else {
        first = link;
      }
      last = link;
    }
    release(b);  // complete's own read: the batch outlives the loop above
    {
      const spin_lock::guard lock(lock_);
      --in_flight_;  // the last touch of this state by the runner
    }
    if (first != nullptr) resume_here(first, last);
  }

  // A reader is done with b (a caller has taken its item, or complete its loop); the last one
  // recycles it. A caller does so before its await returns, so the batcher is still alive.
  void release(batch_type& b) noexcept {
    // acq_rel: each reader's reads happen-before the recycling by the last one.
    if (b.readers.fetch_sub(1, std::memory_order_acq_rel) == 1) recycle(b);
  }

  [[nodiscard]] batch_counters counters() const {
    const spin_lock::guard lock(lock_);
    return counters_;
  }
  [[nodiscard]] std::size_t pending() const {
    const spin_lock::guard lock(lock_);
    return current_ != nullptr ? current_->callers.size() : 0;
  }

 private:
  [[gnu::noinline]] void recycle(batch_type& b) noexcept {
    b.clear();
    const spin_lock::guard lock(lock_);
    free_.emplace_back(&b);  // within capacity: reserved when b was made
  }

  bool flush_idle(slot& s) noexcept {
    std::coroutine_handle<> runner;
    {
      const spin_lock::guard lock(lock_);
      if (s.waiting.load(std::memory_order_relaxed) == 0) return false;
      runner = take(&batch_counters::by_idle);
    }
    s.where->post(runner, false);
    return true;
  }

  // Under the lock: true while the batch c joined is the one being filled.
  bool still_filling(const call& c) const noexcept SHOAL_REQUIRES(lock_) {
    return current_ != nullptr && counters_.batches == c.batch_seq_;
  }

  // Under the lock: the batch being filled, made (with room for it in free_) and given its
  // runner when needed. Throws std::bad_alloc with nothing changed that matters.
  batch_type& prepared() SHOAL_REQUIRES(lock_) {
    if (current_ == nullptr) {
      if (free_.empty()) {
        free_.reserve(made_ + 1);  // so complete never allocates: free_ can hold every batch
        current_ = std::make_unique<batch_type>();
        ++made_;
      } else {
        current_ = std::move(free_.back());
        free_.pop_back();
      }
    }
    if (!current_->runner) current_->runner = make_runner(*this, *current_, nullptr);
    return *current_;
  }

  // Grows v geometrically ahead of a push_back, so the push cannot fail.
  template <class V>
  static void make_room(V& v) {
    if (v.size() == v.capacity()) v.reserve(v.capacity() < 8 ? 8 : 2 * v.capacity());
  }

  static void add_waiting(slot& s, std::ptrdiff_t n) noexcept {
    const std::size_t now = s.waiting.load(std::memory_order_relaxed);
    s.waiting.store(now + static_cast<std::size_t>(n),
                    std::memory_order_relaxed);  // read by on_idle's precheck
  }

  // Under the lock: why b is due now (c just joined it at its back). If flush_if throws, c is
  // taken out again first.
  flush_rule due_rule(batch_type& b, call& c) SHOAL_REQUIRES(lock_) {
    return rules_.due(b.args, *c.owner_, b.deadline, [&]() noexcept {
      b.args.pop_back();
      b.callers.pop_back();
      add_waiting(*c.slot_, -1);
    });
  }

  // Under the lock: detaches the current batch (the next join prepares another) and returns its
  // runner, to be started. Allocates nothing.
  std::coroutine_handle<> take(flush_rule why) noexcept SHOAL_REQUIRES(lock_) {
    batch_type* full = current_.release();  // owned by its runner until complete
    for (auto& s : slots_) s->waiting.store(0, std::memory_order_relaxed);
    count_flush(counters_, why, full->args.size());
    ++in_flight_;
    return std::exchange(full->runner, nullptr);
  }

  // Under the lock: which stop callback covers c (it just joined b). True: c hosts a new one.
  static bool cover(batch_type& b, call& c) noexcept {
    if (!c.chain_stop_.stop_possible()) return false;
    const call* h = b.stop_host;
    if (h != nullptr && h->chain_stop_.same_stop(c.chain_stop_)) {
      c.host_ = b.stop_host;
      return false;
    }
    c.host_ = &c;
    b.stop_host = &c;
    return true;
  }

  // Under the lock: removes `host` and the callers it covers from b, keeping the others' order.
  // Returns them in arrival order, chained through next_cancelled_.
  call* remove_covered(batch_type& b, call& host) noexcept SHOAL_REQUIRES(lock_) {
    call* out = nullptr;
    call** tail = &out;
    std::size_t kept = host.index_;
    for (std::size_t i = host.index_; i < b.callers.size(); ++i) {
      call& c = *b.callers[i];
      if (c.host_ != &host) {
        if (kept != i) {
          b.args[kept] = std::move(b.args[i]);
          b.callers[kept] = &c;
          c.index_ = kept;
        }
        ++kept;
        continue;
      }
      add_waiting(*c.slot_, -1);
      if (b.timer_holder == &c) b.timer_holder = nullptr;  // the next caller takes the timer
      *tail = &c;
      tail = &c.next_cancelled_;
      ++counters_.cancelled;
    }
    b.args.erase(b.args.begin() + static_cast<std::ptrdiff_t>(kept), b.args.end());
    b.callers.resize(kept);
    if (b.stop_host == &host) b.stop_host = nullptr;  // the next caller hosts a new one
    return out;
  }

  // Under the lock: the slot of `ex`, created on first use.
  // In line for the usual case, callers from the executor that came first (one executor: the
  // only slot); the others searched for, or added, out of line.
  slot* slot_for(executor* ex) SHOAL_REQUIRES(lock_) {
    if (!slots_.empty() && slots_.front()->where == ex) [[likely]] {
      return slots_.front().get();
    }
    return find_or_add_slot(ex);
  }
  [[gnu::noinline]] slot* find_or_add_slot(executor* ex) SHOAL_REQUIRES(lock_) {
    for (auto& s : slots_) {
      if (s->where == ex) return s.get();
    }
    make_room(slots_);
    auto s = std::make_unique<slot>();
    s->run = &on_idle;
    s->state = this;
    s->where = ex;
    slots_.push_back(std::move(s));  // within capacity: cannot throw
    return slots_.back().get();
  }

  batch_rules<Arg, R> rules_;
  mutable spin_lock lock_;
  std::unique_ptr<batch_type> current_ SHOAL_GUARDED_BY(lock_);  // null after a take
  std::vector<std::unique_ptr<batch_type>> free_ SHOAL_GUARDED_BY(lock_);
  std::size_t made_ SHOAL_GUARDED_BY(lock_) = 0;  // batches ever made
  std::vector<std::unique_ptr<slot>> slots_ SHOAL_GUARDED_BY(lock_);
  batch_counters counters_ SHOAL_GUARDED_BY(lock_);
  std::size_t in_flight_ SHOAL_GUARDED_BY(lock_) = 0;  // taken, not yet recycled
};

}  // namespace shoal::detail
