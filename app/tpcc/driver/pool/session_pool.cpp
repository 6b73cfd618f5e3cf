// SPDX-License-Identifier: Apache-2.0
// The generic session pool (session_pool.hpp).
//
// Waiting: an intrusive FIFO of waiters, each living in its acquire() frame and suspended in a
// shoal::foreign_completion. Whoever unlinks a waiter under the mutex (a release handing it a
// session, the waiter's stop callback, close(), a failed reconnect) owns its completion and
// completes it after unlocking; the others find it unlinked and leave it alone. So a waiter is
// completed exactly once, and a session handed over is never lost: the waiter always receives
// it, even when its stop arrives just after.
#include "driver/pool/session_pool.hpp"

#include <algorithm>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <stop_token>
#include <utility>
#include <vector>

#include "driver/pool/reconnect_pacing.hpp"
#include "shoal/clock.hpp"
#include "shoal/foreign_completion.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/thread_pool.hpp"

namespace tpcc::driver::pool {

namespace {

// What a waiter is completed with: a session, or why none.
struct grant {
  session* granted = nullptr;
  outcome why;
};

outcome cancelled() { return outcome::make(outcome_kind::failed, "", "cancelled"); }

struct waiter {
  waiter* prev = nullptr;
  waiter* next = nullptr;
  bool linked = false;
  std::optional<shoal::completer<grant>> done;
};

// A completion decided under the mutex, delivered after unlocking it.
struct delivery {
  std::optional<shoal::completer<grant>> to;  // always set: a linked waiter has its completer
  grant what;
};

}  // namespace

struct session_pool::state : std::enable_shared_from_this<state> {
  explicit state(session_pool_options opts, shoal::thread_pool& bg)
      : options(std::move(opts)),
        background(&bg),
        pacing(options.min_backoff, options.max_backoff, std::random_device{}()) {}

  session_pool_options options;
  shoal::thread_pool* background;
  std::stop_source stop;  // requested by close(): ends background work

  mutable std::mutex mutex;
  std::vector<std::unique_ptr<session>> sessions;  // every open session, owned
  std::vector<session*> idle;                      // of which not lent
  waiter* head = nullptr;                          // oldest waiter
  waiter* tail = nullptr;
  std::size_t waiting = 0;
  std::size_t in_use = 0;
  std::size_t in_background = 0;  // replacement / fill tasks alive
  std::uint64_t replaced = 0;
  std::string last_failure;  // set while no session is open and the last attempt failed
  reconnect_pacing pacing;   // when background work may call the factory
  bool closing = false;
  std::optional<shoal::completer<void>> close_waiter;

  void link(waiter& w) {
    w.prev = tail;
    w.next = nullptr;
    (tail != nullptr ? tail->next : head) = &w;
    tail = &w;
    w.linked = true;
    ++waiting;
  }
  void unlink(waiter& w) {
    (w.prev != nullptr ? w.prev->next : head) = w.next;
    (w.next != nullptr ? w.next->prev : tail) = w.prev;
    w.linked = false;
    --waiting;
  }
  delivery pop_front(grant g) {
    waiter& w = *head;
    unlink(w);
    return {w.done, std::move(g)};
  }

  // A session for a newcomer, without queueing: only when nobody waits (no barging).
  std::optional<grant> try_take() {
    if (closing) return grant{nullptr, outcome::make(outcome_kind::failed, "", "database closed")};
    if (head != nullptr) return std::nullopt;
    if (!idle.empty()) {
      session* s = idle.back();
      idle.pop_back();
      ++in_use;
      return grant{s, {}};
    }
    if (sessions.empty() && !last_failure.empty()) {
      return grant{nullptr, outcome::make(outcome_kind::connection_lost, "", last_failure)};
    }
    return std::nullopt;
  }

  // Gives a usable session to the oldest waiter, or makes it idle.
  void offer(session& s, std::vector<delivery>& out) {
    if (head != nullptr && !closing) {
      ++in_use;
      out.push_back(pop_front(grant{&s, {}}));
    } else {
      idle.push_back(&s);
    }
  }

  void fail_waiters(const outcome& why, std::vector<delivery>& out) {
    while (head != nullptr) out.push_back(pop_front(grant{nullptr, why}));
  }

  // The close() waiter, when nothing is lent and no background task is alive any more.
  std::optional<shoal::completer<void>> closed_if_done() {
    if (!closing || in_use != 0 || in_background != 0 || !close_waiter) return std::nullopt;
    return std::exchange(close_waiter, std::nullopt);
  }

  std::unique_ptr<session> detach(session& s) {
    auto it = std::find_if(sessions.begin(), sessions.end(),
                           [&](const std::unique_ptr<session>& p) { return p.get() == &s; });
    if (it == sessions.end()) return nullptr;
    std::unique_ptr<session> owned = std::move(*it);
    sessions.erase(it);
    return owned;
  }

  void start_background(std::unique_ptr<session> broken, bool replacement);
  shoal::task<grant> take(std::stop_token token);
  // Takes back a lent session: to a waiter, idle, or (unusable) replaced in the background.
  void give_back(session& s, bool usable) noexcept;
  static shoal::task<void> reconnect(std::shared_ptr<state> self, std::unique_ptr<session> broken,
                                     bool replacement);
  void reconnected(factory_result result, bool replacement, bool probe);
  shoal::task<factory_result> attempt() const;
  // A wait of zero: call the factory now (as the probe when `probe`); else how long to sleep
  // before asking again.
  struct admission {
    reconnect_pacing::duration wait;
    bool probe;
  };
  admission admit() {
    std::scoped_lock lock(mutex);
    const reconnect_pacing::duration wait = pacing.admit(shoal::now());
    return {wait, pacing.failing()};
  }
};

namespace {

void deliver(std::vector<delivery>& out) {
  for (delivery& d : out) {
    if (d.to) d.to->set_value(std::move(d.what));
  }
}

struct cancel_waiter {
  session_pool::state* pool;
  waiter* w;
  void operator()() const noexcept {
    std::unique_lock lock(pool->mutex);
    if (!w->linked) return;  // already handed a session or failed: that completion stands
    pool->unlink(*w);
    lock.unlock();
    if (w->done) w->done->set_value(grant{nullptr, cancelled()});
  }
};

}  // namespace

shoal::task<grant> session_pool::state::take(std::stop_token token) {
  waiter w;
  std::optional<std::stop_callback<cancel_waiter>> on_stop;
  grant g = co_await shoal::foreign_completion<grant>([&](shoal::completer<grant> done) {
    std::unique_lock lock(mutex);
    if (std::optional<grant> now = try_take()) {
      lock.unlock();
      done.set_value(std::move(*now));
      return;
    }
    w.done.emplace(done);
    link(w);
    lock.unlock();
    // Runs cancel_waiter at once when the stop came meanwhile.
    if (token.stop_possible()) on_stop.emplace(token, cancel_waiter{this, &w});
  });
  on_stop.reset();  // waits for a stop callback running concurrently
  co_return g;
}

void session_pool::state::start_background(std::unique_ptr<session> broken, bool replacement) {
  ++in_background;  // the caller holds the mutex
  background->spawn(shoal::with_stop_token(
      stop.get_token(), reconnect(shared_from_this(), std::move(broken), replacement)));
}

void session_pool::state::give_back(session& s, bool usable) noexcept {
  std::vector<delivery> out;
  std::optional<shoal::completer<void>> closed;
  {
    std::scoped_lock lock(mutex);
    --in_use;
    if (usable || closing) {
      offer(s, out);
    } else {
      start_background(detach(s), true);
    }
    closed = closed_if_done();
  }
  deliver(out);
  if (closed) closed->set_value();
}

void session_pool::state::reconnected(factory_result result, bool replacement, bool probe) {
  std::vector<delivery> out;
  std::unique_ptr<session> unwanted;
  {
    std::scoped_lock lock(mutex);
    if (auto* opened = std::get_if<std::unique_ptr<session>>(&result)) {
      pacing.succeeded();
      if (closing) {
        unwanted = std::move(*opened);
      } else {
        sessions.push_back(std::move(*opened));
        last_failure.clear();
        if (replacement) ++replaced;
        offer(*sessions.back(), out);
      }
    } else {
      pacing.failed(shoal::now(), probe);
      if (sessions.empty()) {
        last_failure = std::get<outcome>(result).message;
        fail_waiters(outcome::make(outcome_kind::connection_lost, "", last_failure), out);
      }
    }
  }
  deliver(out);
}

shoal::task<factory_result> session_pool::state::attempt() const {
  factory_result result = outcome::make(outcome_kind::failed, "", "no factory");
  try {
    result = co_await options.factory();
  } catch (const std::exception& e) {
    result = outcome::make(outcome_kind::failed, "", e.what());
  }
  co_return result;
}

shoal::task<void> session_pool::state::reconnect(std::shared_ptr<state> self,
                                                 std::unique_ptr<session> broken,
                                                 bool replacement) {
  broken.reset();  // closes the dead connection first
  for (;;) {
    if (shoal::stop_requested()) break;
    const admission admitted = self->admit();
    if (admitted.wait != reconnect_pacing::duration::zero()) {
      // Not `if (!co_await ...)`: g++ 12 miscompiles a co_await in a condition (SIGILL).
      const bool slept = co_await shoal::sleep_for(admitted.wait);
      if (!slept) break;
      continue;
    }
    factory_result result = co_await self->attempt();
    const bool opened = std::holds_alternative<std::unique_ptr<session>>(result);
    self->reconnected(std::move(result), replacement, admitted.probe);
    if (opened) break;
  }
  std::optional<shoal::completer<void>> closed;
  {
    std::scoped_lock lock(self->mutex);
    --self->in_background;
    closed = self->closed_if_done();
  }
  if (closed) closed->set_value();
}

shoal::task<open_result> session_pool::open(session_pool_options options) {
  shoal::thread_pool* bg =
      options.background != nullptr ? options.background : shoal::thread_pool::current();
  if (bg == nullptr) throw std::logic_error("session_pool::open needs a thread_pool to run on");
  if (!options.factory) throw std::logic_error("session_pool::open needs a session factory");
  options.size = std::max<std::size_t>(options.size, 1);
  auto shared = std::make_shared<state>(std::move(options), *bg);
  factory_result first = co_await shared->options.factory();
  if (auto* failure = std::get_if<outcome>(&first)) co_return std::move(*failure);
  {
    std::scoped_lock lock(shared->mutex);
    shared->sessions.push_back(std::move(std::get<std::unique_ptr<session>>(first)));
    shared->idle.push_back(shared->sessions.back().get());
    for (std::size_t i = 1; i < shared->options.size; ++i) shared->start_background(nullptr, false);
  }
  co_return std::unique_ptr<database>(new session_pool(std::move(shared)));
}

session_pool::session_pool(std::shared_ptr<state> shared) noexcept : state_(std::move(shared)) {}

session_pool::~session_pool() = default;

shoal::task<lease> session_pool::acquire() {
  const shoal::time_point started = shoal::now();
  const std::stop_token token = shoal::current_stop_token();
  for (;;) {
    if (token.stop_requested()) co_return lease(cancelled());
    grant g = co_await state_->take(token);
    if (g.granted == nullptr) co_return lease(std::move(g.why));
    if (g.granted->healthy()) co_return lease(*this, *g.granted, shoal::now() - started);
    // It died while idle: replace it and wait for another (queueing again).
    state_->give_back(*g.granted, false);
  }
}

void session_pool::release(session& s) noexcept {
  const bool usable = s.healthy();  // may probe the connection: outside the mutex
  state_->give_back(s, usable);
}

std::string session_pool::describe() const { return state_->options.description; }

pool_stats session_pool::stats() const {
  std::scoped_lock lock(state_->mutex);
  return {.size = state_->sessions.size(),
          .in_use = state_->in_use,
          .waiting = state_->waiting,
          .replaced = state_->replaced};
}

shoal::task<void> session_pool::close() {
  std::vector<delivery> out;
  bool must_wait = false;
  {
    std::scoped_lock lock(state_->mutex);
    state_->closing = true;
    state_->fail_waiters(outcome::make(outcome_kind::failed, "", "database closed"), out);
    must_wait = state_->in_use != 0 || state_->in_background != 0;
  }
  deliver(out);
  state_->stop.request_stop();
  if (must_wait) {
    co_await shoal::foreign_completion<void>([&](shoal::completer<void> done) {
      std::optional<shoal::completer<void>> closed;
      {
        std::scoped_lock lock(state_->mutex);
        state_->close_waiter.emplace(done);
        closed = state_->closed_if_done();
      }
      if (closed) closed->set_value();
    });
  }
  std::vector<std::unique_ptr<session>> doomed;
  {
    std::scoped_lock lock(state_->mutex);
    doomed = std::move(state_->sessions);
    state_->sessions.clear();
    state_->idle.clear();
  }
  doomed.clear();  // closes the connections, outside the mutex
}

}  // namespace tpcc::driver::pool
