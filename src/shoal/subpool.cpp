// SPDX-License-Identifier: Apache-2.0
// Admission into a subpool: capacity, priorities and the starvation rule (shoal/subpool.hpp).
#include "shoal/subpool.hpp"

#include <utility>

#include "shoal/detail/thread_pool.hpp"

namespace shoal {
namespace {

task<> run_in(subpool& sub, task<> t, priority p) {
  const subpool_slot slot = co_await sub.enter(p);
  co_await std::move(t);
}

}  // namespace

subpool::subpool(thread_pool& pool, subpool_options options)
    : pool_(&pool),
      name_(std::move(options.name)),
      capacity_(options.capacity != 0 ? options.capacity : pool.size()),
      starvation_limit_(options.starvation_limit) {}

void subpool::spawn(task<void> t, priority p) { pool_->spawn(run_in(*this, std::move(t), p)); }

std::size_t subpool::running() const noexcept {
  const detail::spin_lock::guard hold(lock_);
  return running_;
}

std::size_t subpool::waiting() const noexcept {
  const detail::spin_lock::guard hold(lock_);
  return waiting_;
}

void subpool::enter(detail::subpool_waiter& w) noexcept {
  {
    const detail::spin_lock::guard hold(lock_);
    const bool free_slot = running_ < capacity_ && waiting_ == 0;
    if (!free_slot && w.priority_ != priority::emergency) {
      fifo& q = queues_[static_cast<std::size_t>(w.priority_)];
      w.next_ = nullptr;
      w.enqueued_at_ = admissions_;
      w.ticket_ = tickets_++;
      (q.tail != nullptr ? q.tail->next_ : q.head) = &w;
      q.tail = &w;
      ++waiting_;
      return;
    }
    ++running_;
    ++admissions_;
  }
  detail::pool_post(*pool_, w.h_);  // admitted: on to the pool (the post publishes the slot)
}

void subpool::release() noexcept {
  detail::subpool_waiter* next = nullptr;
  {
    const detail::spin_lock::guard hold(lock_);
    --running_;
    if (running_ < capacity_ && waiting_ != 0) {
      next = pick();
      --waiting_;
      ++running_;
      ++admissions_;
    }
  }
  if (next != nullptr) detail::pool_post(*pool_, next->h_);
}

// The starving waiter that has waited longest, else the oldest of the highest priority; unlinked.
// Only a queue's head can be the oldest (or the most starved) of its priority.
detail::subpool_waiter* subpool::pick() noexcept {
  fifo* chosen = nullptr;
  for (fifo& q : queues_) {
    detail::subpool_waiter* head = q.head;
    if (head == nullptr || admissions_ - head->enqueued_at_ < starvation_limit_) continue;
    if (chosen == nullptr || head->ticket_ < chosen->head->ticket_) chosen = &q;
  }
  if (chosen == nullptr) {
    for (fifo& q : queues_) {
      if (q.head != nullptr) {
        chosen = &q;
        break;
      }
    }
  }
  detail::subpool_waiter* w = chosen->head;
  chosen->head = w->next_;
  if (chosen->head == nullptr) chosen->tail = nullptr;
  return w;
}

namespace detail {

void subpool_waiter::enter() noexcept { owner_->enter(*this); }

void subpool_slot::reset() noexcept {
  if (owner_ != nullptr) std::exchange(owner_, nullptr)->release();
}

}  // namespace detail
}  // namespace shoal
