// SPDX-License-Identifier: Apache-2.0
// The slow paths of a fork scope's lazy stop (shoal/detail/lazy_stop.hpp): making its
// std::stop_source, its callbacks' registration, removal and run, and their link to the parent.
//
// Why no run is lost: add inserts under the lock bit unless run_callbacks has begun (ran_bit, set
// under the lock bit) or the scope was stopped, and run_callbacks takes the nodes one by one
// under it. So a node is either refused (its caller does the work) or taken and run. request_stop
// runs the list only when its RMW saw the listed bit (a scope without callbacks, the usual
// when_any, pays no lock); the first add sets that bit with an RMW of its own and, when that saw
// the request, runs the list itself: one of the two RMWs comes second and sees the other. A
// parent's stop reaches the list through the link the first add makes after inserting its node: a
// parent stopped before the link exists runs the callbacks from the link's making (a
// std::stop_callback on a stopped token runs at once; a refused node on a lazy parent runs them
// here), so it cannot fall between the two. Removal: a listed node is unlinked under the lock bit
// and never runs. A node already taken is running or has run: remove waits for its done_ (release
// after the run, acquire here), unless this thread is running it (the run removes its own node):
// then it tells the run, which touches the node no more.
#include <atomic>
#include <cstdint>
#include <memory>
#include <new>
#include <thread>

#include "shoal/detail/lazy_stop.hpp"

namespace shoal::detail {

namespace {

// The node this thread's run_callbacks is running, and whether that run removed it.
struct lazy_stop_running {
  const lazy_stop_node* node = nullptr;
  bool removed = false;
};
thread_local lazy_stop_running lazy_stop_run_here;

}  // namespace

std::uint8_t lazy_stop::lock() const noexcept {
  std::uint8_t s = state_.load(std::memory_order_relaxed);
  for (unsigned spins = 1;; ++spins) {
    // acquire: pairs with unlock's release, so the last holder's writes are seen.
    if ((s & lock_bit) == 0 &&
        state_.compare_exchange_weak(s, static_cast<std::uint8_t>(s | lock_bit),
                                     std::memory_order_acquire, std::memory_order_relaxed)) {
      return static_cast<std::uint8_t>(s | lock_bit);
    }
    if ((s & lock_bit) != 0) {
      if (spins % 64 == 0) std::this_thread::yield();  // a preempted holder gets the core back
      s = state_.load(std::memory_order_relaxed);
    }
  }
}

void lazy_stop::stopped_now(std::uint8_t was) const noexcept {
  // made_ was published before the made bit (make's acq_rel RMW; our seq_cst RMW read it).
  if ((was & made_bit) != 0) made_->source.request_stop();
  // No list yet: an add that lists after our RMW sees the request (under the lock, or in its
  // own RMW of the listed bit) and runs the callbacks itself.
  if ((was & listed_bit) != 0) run_callbacks();
}

lazy_stop::made* lazy_stop::make() const {
  auto fresh = std::make_unique<made>();
  if (parent_.stop_possible()) fresh->link.emplace(parent_.token(), forward{&fresh->source});
  const std::uint8_t s = lock();
  if ((s & made_bit) != 0) {  // another thread made it first; ours goes
    unlock();
    return made_;
  }
  made* m = fresh.release();
  made_ = m;
  // seq_cst: one RMW order with request_stop's (see the header); release publishes made_.
  const std::uint8_t was = state_.fetch_or(made_bit, std::memory_order_seq_cst);
  unlock();
  if ((was & requested_bit) != 0) m->source.request_stop();
  return m;
}

bool lazy_stop::add(lazy_stop_node& n) const noexcept {
  const std::uint8_t s = lock();
  if ((s & (ran_bit | requested_bit)) != 0) {
    unlock();
    return false;
  }
  const bool first = (s & listed_bit) == 0;
  n.prev_ = nullptr;
  n.next_ = first ? nullptr : head_;
  if (n.next_ != nullptr) n.next_->prev_ = &n;
  head_ = &n;
  n.listed_ = true;
  const bool link = (s & linked_bit) == 0 && parent_.stop_possible();
  const auto bits = static_cast<std::uint8_t>(listed_bit | (link ? linked_bit : 0));
  std::uint8_t was = s;
  // seq_cst: one RMW order with request_stop's, which skips the list when it has no listed bit.
  if ((s & bits) != bits) was = state_.fetch_or(bits, std::memory_order_seq_cst);
  unlock();
  if (link) link_parent();
  // A request that came after our lock may have found no list: run them (once, whoever first).
  if ((was & requested_bit) != 0) run_callbacks();
  return true;
}

void lazy_stop::remove(lazy_stop_node& n) const noexcept {
  (void)lock();
  if (n.listed_) {
    if (n.prev_ != nullptr) {
      n.prev_->next_ = n.next_;
    } else {
      head_ = n.next_;
    }
    if (n.next_ != nullptr) n.next_->prev_ = n.prev_;
    n.listed_ = false;
    unlock();
    return;
  }
  unlock();
  lazy_stop_running& here = lazy_stop_run_here;
  if (here.node == &n) {  // its own run, on this thread: it must not touch n again
    here.removed = true;
    return;
  }
  // acquire: pairs with run_callbacks' release store after the run returned.
  while (!n.done_.load(std::memory_order_acquire)) std::this_thread::yield();
}

void lazy_stop::run_callbacks() const noexcept {
  const std::uint8_t s = lock();
  if ((s & ran_bit) != 0) {
    unlock();
    return;
  }
  state_.fetch_or(ran_bit, std::memory_order_relaxed);  // under the lock bit
  unlock();
  lazy_stop_running& here = lazy_stop_run_here;
  const lazy_stop_running outer = here;  // a run may stop another scope, which runs its own
  for (;;) {
    const std::uint8_t now = lock();
    lazy_stop_node* n = (now & listed_bit) != 0 ? head_ : nullptr;
    if (n == nullptr) {
      unlock();
      break;
    }
    head_ = n->next_;
    if (head_ != nullptr) head_->prev_ = nullptr;
    n->listed_ = false;
    unlock();
    here = {.node = n, .removed = false};
    n->run_(*n);
    // release: pairs with remove's acquire load; the last touch of n (its owner may free it).
    if (!here.removed) n->done_.store(true, std::memory_order_release);
  }
  here = outer;
}

void lazy_stop::link_parent() const noexcept {
  if (const lazy_stop* up = parent_.lazy_target()) {
    auto* node = ::new (static_cast<void*>(link_)) parent_node(this);
    if (!up->add(*node)) {                                 // the parent has stopped already
      node->done_.store(true, std::memory_order_relaxed);  // free_extras' remove returns at once
      run_callbacks();
    }
  } else if (const std::stop_token* token = parent_.plain_target()) {
    ::new (static_cast<void*>(link_)) parent_callback(*token, parent_forward{this});
  }
}

void lazy_stop::free_extras() noexcept {
  const std::uint8_t s = state_.load(std::memory_order_relaxed);
  if ((s & made_bit) != 0) delete made_;
  if ((s & linked_bit) == 0) return;
  if (const lazy_stop* up = parent_.lazy_target()) {
    auto* node = std::launder(reinterpret_cast<parent_node*>(link_));
    up->remove(*node);
    node->~parent_node();
  } else {
    std::launder(reinterpret_cast<parent_callback*>(link_))->~parent_callback();
  }
}

}  // namespace shoal::detail
