// SPDX-License-Identifier: Apache-2.0
// shoal/detail/bound_batcher_state.hpp: the state behind shoal/bound_batcher.hpp.
//
// What: the batch being filled (arguments, and the list of their callers through their
// awaiters, in arrival order), the batches in their bulk calls or being read, a free list of
// batches (capacity kept), the max-wait timer and the idle hook (one of each: every caller is on
// the home executor), the flush policy and the bulk function. A flush takes the current batch
// and starts a runner for it: a root coroutine bound to home (frames from the recycling frame
// allocator) that calls the bulk function, keeps its results (or its exception) in the batch and
// resumes the callers directly on this thread, in one loop (resume_here, batcher_call.hpp: one
// drain per thread for every batcher). Each caller moves its item out of the batch; the last
// one recycles it.
//
// Thread-safety: none inside. Every member function runs on the home executor's thread: callers
// are checked on entry (check_home), the timer and the idle hook fire there, runners are bound
// there. The one exception is the destructor's idle-hook unlink, which is thread-safe by itself.
// Failure: whatever allocates (a batch's buffers, the timer, the runner's frames) does so before
// anything changes, so a join that throws leaves the batch as it was. A flush by time or by
// idleness that cannot allocate its runner leaves the batch filling; the next arrival or idle
// moment tries again.
#pragma once

#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "shoal/clock.hpp"
#include "shoal/detail/batch_core.hpp"
#include "shoal/detail/batcher_call.hpp"  // resume_here, resumable_here
#include "shoal/detail/bound_batcher_call.hpp"
#include "shoal/detail/idle_hooks.hpp"
#include "shoal/detail/timer_node.hpp"
#include "shoal/executor.hpp"

namespace shoal::detail {

// Thrown by check_home; compiled in src/shoal/bound_batcher.cpp (a shoal::wrong_executor).
[[noreturn]] void throw_wrong_executor(const executor* home, const executor* here);
// The executor of this thread, or std::logic_error naming `what` when there is none.
executor& current_executor_or_throw(const char* what);

template <class Arg, class R>
struct bound_batch {
  std::vector<Arg> args;
  bound_call<Arg, R>* head = nullptr;  // its callers, through next_, one per argument
  bound_call<Arg, R>* tail = nullptr;
  bound_call<Arg, R>* stop_host = nullptr;  // the latest caller hosting a stop callback
  bound_call<Arg, R>* hosts = nullptr;      // every host, through next_host_ (while it fills)
  std::vector<R> results;                   // the bulk call's, read by the callers
  std::exception_ptr failure;               // the bulk call's, rethrown by each caller
  std::size_t unread = 0;                   // callers resumed with it that have not read it yet
  bool returned = false;                    // its bulk call returned: results/failure are set

  void clear() noexcept {
    args.clear();
    results.clear();
    failure = nullptr;
    returned = false;
    head = tail = stop_host = hosts = nullptr;
  }
};

template <class Arg, class R>
class bound_state {
 public:
  using call = bound_call<Arg, R>;
  using batch_type = bound_batch<Arg, R>;
  using result_type = R;
  static constexpr const char* name = "shoal::bound_batcher";
  static constexpr bool single_thread = true;

  template <class Bulk>
  bound_state(executor& home, Bulk bulk, flush_policy<Arg> p)
      : home_(&home), rules_(std::move(bulk), std::move(p)), any_rule_(rules_.any()) {
    add_spare();
    current_ = take_spare();
    hook_.run = &on_idle;
    hook_.self = this;
    timer_.fire = &on_timer;
    timer_.self = this;
  }
  bound_state(const bound_state&) = delete;
  bound_state& operator=(const bound_state&) = delete;
  // Every call has returned (the batcher's contract): no batch fills, no runner runs, the timer
  // is disarmed. The hook's unlink waits for a run in progress on home.
  ~bound_state() { hook_.unlink(); }

  [[nodiscard]] executor& home() const noexcept { return *home_; }
  void check_home() const {
    const executor* here = executor::current();
    if (here != home_) throw_wrong_executor(home_, here);
  }

  // c joins the current batch. Returns the runner to transfer to when c filled it, else null.
  std::coroutine_handle<> join(call& c) {
    if (!hook_tried_) {
      hook_tried_ = true;
      (void)home_->add_idle_hook(hook_);  // false: an executor without an idle point
    }
    batch_type& b = *current_;
    const bool first = b.head == nullptr;
    if (first && rules_.timed()) arm_timer();
    try {
      b.args.push_back(std::move(c.arg_));
    } catch (...) {
      if (first) disarm_timer();
      throw;
    }
    call* const prev = b.tail;
    if (prev != nullptr) {
      prev->next_ = &c;
      prev->link_.next = &c.link_;
    } else {
      b.head = &c;
    }
    b.tail = &c;
    c.index_ = b.args.size() - 1;
    c.batch_ = &b;
    c.phase_ = call::phase::joined;
    const bool host = cover(b, c);
    if (!any_rule_) {  // only idleness flushes
      if (host) c.host_stop();
      return nullptr;
    }
    flush_rule why = nullptr;
    std::coroutine_handle<> runner;
    try {
      why = rules_.due(b.args, *home_, deadline_, [] {});  // undone below
      if (why != nullptr) runner = take(why);
    } catch (...) {  // flush_if threw, or the flush could not allocate: c leaves again
      undo_join(b, c, prev);
      throw;
    }
    if (why == nullptr && host) c.host_stop();  // flushed: the batch is no longer filling
    return runner;
  }

  // `host` was resumed by its own stop callback, its batch still filling (a flush would have
  // marked it cancelled): takes it and the callers it covers out and posts those (not the host,
  // which returns nullopt itself).
  void leave(call& host) noexcept {
    host.stop_.reset();  // it ran (it posted us): wait until it has returned
    post_cancelled(remove_filling(*current_, host));
  }

  // A caller read its batch (or, stopped, let it go): the last one recycles it. Never allocates
  // (the free list has room for every batch). In line: one decrement and a test per caller.
  void release(batch_type& b) noexcept {
    if (--b.unread == 0) [[unlikely]] {
      recycle(b);
    }
  }

  [[nodiscard]] const batch_rules<Arg, R>& rules() const noexcept { return rules_; }

  // From run_batch (batch_core.hpp): keeps the results (or the failure) in the batch for its
  // callers to read, then resumes them here: the callers' links, made as they joined, are
  // already the list resume_here walks. Touches nothing of the batcher after the first
  // resumption: a caller may destroy it once the last one has read the batch.
  void complete(batch_type& b, std::vector<R>& results, std::exception_ptr failure) noexcept {
    b.results.swap(results);  // the old buffer goes with the runner's vector
    b.failure = std::move(failure);
    b.unread = b.args.size();
    b.returned = true;
    if (resumable_here(home_)) {
      resume_here(&b.head->link_, &b.tail->link_);
      return;
    }
    for (call* c = b.head; c != nullptr;) {
      call* const next = c->next_;  // read before: a posted caller may release the batch
      home_->post(c->link_.handle, true);
      c = next;
    }
  }

  [[nodiscard]] const batch_counters& counters() const noexcept { return counters_; }
  [[nodiscard]] std::size_t pending() const noexcept { return current_->args.size(); }

 private:
  struct hook_with_owner : idle_hook {
    bound_state* self = nullptr;
  };
  struct timer_with_owner : timer_node {
    bound_state* self = nullptr;
  };

  static bool on_idle(idle_hook& hook) noexcept {
    bound_state& s = *static_cast<hook_with_owner&>(hook).self;
    return !s.current_->args.empty() && s.flush_posted(&batch_counters::by_idle);
  }
  static void on_timer(timer_node& node) noexcept {
    bound_state& s = *static_cast<timer_with_owner&>(node).self;
    s.timer_armed_ = false;
    if (!s.current_->args.empty()) (void)s.flush_posted(&batch_counters::by_time);
  }

  // Flushes from a timer or the idle hook (noexcept paths): posts the runner. True when it made
  // work ready (the runner, or callers whose stop it found). When the runner cannot be
  // allocated the batch keeps filling: the next arrival or idle moment tries again.
  bool flush_posted(flush_rule why) noexcept {
    const std::uint64_t left_before = counters_.cancelled;
    std::coroutine_handle<> runner;
    try {
      runner = take(why);
    } catch (...) {
      return false;
    }
    if (runner) home_->post(runner, true);
    return runner || counters_.cancelled != left_before;
  }

  // c, the last to join b (after `prev`), could not stay: takes it back out (take() changed
  // nothing when it threw).
  void undo_join(batch_type& b, call& c, call* prev) noexcept {
    b.args.pop_back();
    b.tail = prev;
    if (prev != nullptr) {
      prev->next_ = nullptr;
      prev->link_.next = nullptr;
    } else {
      b.head = nullptr;
    }
    if (b.stop_host == &c) b.stop_host = nullptr;
    if (b.hosts == &c) b.hosts = c.next_host_;
    c.phase_ = call::phase::before;
    if (b.head == nullptr) disarm_timer();
  }

  // Detaches the current batch, installs a recycled one and returns the runner of the detached
  // one, not yet started; null when every caller turned out to be stopped. Allocates first:
  // nothing has changed when it throws.
  std::coroutine_handle<> take(flush_rule why) {
    if (free_.empty()) add_spare();
    batch_type& full = *current_;
    const std::coroutine_handle<> runner = make_runner(*this, full, home_);
    drop_stopped_hosts(full);
    if (full.head == nullptr) {  // remove_filling disarmed the timer
      runner.destroy();
      return nullptr;
    }
    current_ = take_spare();
    disarm_timer();
    count_flush(counters_, why, full.args.size());
    return runner;
  }

  // The last reader of b let it go: cleared (its arguments and results destroyed, capacity kept)
  // and back on the free list. Out of line: once per batch, not per caller.
  [[gnu::noinline]] void recycle(batch_type& b) noexcept {
    b.clear();
    free_.push_back(&b);
  }

  void add_spare() {
    all_.reserve(all_.size() + 1);
    free_.reserve(all_.size() + 1);
    all_.push_back(std::make_unique<batch_type>());  // reserved: cannot throw after new
    free_.push_back(all_.back().get());
  }
  batch_type* take_spare() noexcept {
    batch_type* b = free_.back();
    free_.pop_back();
    return b;
  }

  void arm_timer() {
    const time_point deadline = rules_.deadline_from(home_->now());
    timer_.deadline = deadline;
    home_->add_timer(timer_);
    timer_armed_ = true;
    deadline_ = deadline;  // stays when the timer fires but its flush could not allocate
  }
  void disarm_timer() noexcept {
    if (!timer_armed_) return;
    (void)home_->cancel_timer(timer_);
    timer_armed_ = false;
  }

  // Which stop callback covers c (it just joined b). True: c hosts a new one.
  static bool cover(batch_type& b, call& c) noexcept {
    if (!c.chain_stop_.stop_possible()) return false;
    call* h = b.stop_host;
    if (h != nullptr && h->chain_stop_.same_stop(c.chain_stop_)) {
      c.host_ = h;
      return false;
    }
    c.host_ = &c;
    c.next_host_ = b.hosts;
    b.hosts = &c;
    b.stop_host = &c;
    return true;
  }

  // Sending b: its hosts' stop callbacks go (the bulk call runs under no stop). A host whose
  // callback already ran is posted: it and the callers it covers leave b now.
  void drop_stopped_hosts(batch_type& b) noexcept {
    call* h = b.hosts;
    while (h != nullptr) {
      call* next = h->next_host_;
      h->stop_.reset();  // waits for a callback running on another thread
      if (h->stopped_) {
        post_cancelled(remove_filling(b, *h));
        h->phase_ = call::phase::cancelled;  // its own post resumes it
      }
      h = next;
    }
    b.hosts = nullptr;
  }

  void post_cancelled(call* out) noexcept {
    while (out != nullptr) {
      call* next = out->next_out_;
      out->phase_ = call::phase::cancelled;
      home_->post(out->link_.handle, true);  // the last touch of a covered caller
      out = next;
    }
  }

  // Takes `host` and the callers it covers out of the filling batch b, keeping the others'
  // order. Returns the covered ones (not the host), chained through next_out_.
  call* remove_filling(batch_type& b, call& host) noexcept {
    call* out = nullptr;
    call** out_tail = &out;
    call** link = &b.head;  // where the next caller kept is linked
    call* last_kept = nullptr;
    std::size_t kept = 0;
    for (call* c = b.head; c != nullptr;) {
      call* const next = c->next_;
      if (c->host_ != &host) {
        if (kept != c->index_) {  // kept <= index: moving towards the front is safe
          b.args[kept] = std::move(b.args[c->index_]);
          c->index_ = kept;
        }
        ++kept;
        *link = c;
        link = &c->next_;
        if (last_kept != nullptr) last_kept->link_.next = &c->link_;
        last_kept = c;
      } else {
        ++counters_.cancelled;
        if (c != &host) {
          *out_tail = c;
          out_tail = &c->next_out_;
        }
      }
      c = next;
    }
    *link = nullptr;
    *out_tail = nullptr;
    b.tail = last_kept;
    if (last_kept != nullptr) last_kept->link_.next = nullptr;
    b.args.erase(b.args.begin() + static_cast<std::ptrdiff_t>(kept), b.args.end());
    if (b.stop_host == &host) b.stop_host = nullptr;  // the next caller hosts a new one
    for (call** h = &b.hosts; *h != nullptr; h = &(*h)->next_host_) {
      if (*h == &host) {
        *h = host.next_host_;
        break;
      }
    }
    if (b.head == nullptr) disarm_timer();
    return out;
  }

  executor* home_;
  batch_rules<Arg, R> rules_;
  batch_type* current_ = nullptr;
  std::vector<std::unique_ptr<batch_type>> all_;  // every batch: filling, sent or free
  std::vector<batch_type*> free_;                 // capacity >= all_.size()
  hook_with_owner hook_;
  bool hook_tried_ = false;  // a plain flag: hook_.linked() would be an atomic load per call
  timer_with_owner timer_;   // the current batch's max-wait timer
  bool timer_armed_ = false;
  time_point deadline_{};  // the current batch's, when max_wait is set
  bool any_rule_;          // a flush rule besides idleness: join asks rules_.due()
  batch_counters counters_;
};

}  // namespace shoal::detail
