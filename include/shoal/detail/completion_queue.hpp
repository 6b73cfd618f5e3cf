// SPDX-License-Identifier: Apache-2.0
// shoal/detail/completion_queue.hpp: the join of a task_group: children queued as they end.
//
// What: a fork_scope whose children, when they end, push themselves onto a lock-free stack
// (`ended_`). The group's owner takes them in the order they ended: it swaps the whole stack out
// and reverses it into a list of its own (`taken_`), popped from the front. To wait, the owner
// swaps an empty stack for the marker `&waiting_`; the child whose push replaces the marker
// resumes the owner.
//
// Why no wake-up is lost: the owner suspends only if its compare-exchange replaced an empty
// stack with the marker; from then on every push sees either the marker (and that one pusher,
// and only it, wakes the owner) or a stack that already holds a node (the owner was woken). If
// a child ended between the owner's last look and its compare-exchange, the exchange fails and
// the owner does not suspend. Only one owner waits at a time (task_group is single-consumer).
// Memory ordering: pushes are release (the child's outcome and destructors happen-before the
// owner's acquire swap); the owner's marker store is release so the waking child's acquire sees
// `waiter_`.
// Thread-safety: child_ended from any thread; everything else from the owner's coroutine.
#pragma once

#include <atomic>
#include <coroutine>
#include <cstddef>
#include <stdexcept>

#include "shoal/detail/fork.hpp"
#include "shoal/detail/task_env.hpp"
#include "shoal/executor.hpp"

namespace shoal::detail {

class completion_queue final : public fork_scope {
 public:
  completion_queue() noexcept : fork_scope(&on_end) {}
  completion_queue(const completion_queue&) = delete;
  completion_queue& operator=(const completion_queue&) = delete;
  ~completion_queue() = default;

  // Starts `child` where the calling coroutine runs (bound there when it is bound); returns its
  // index in launch order.
  template <class Child>
  std::size_t launch(Child& child) {
    const wake_target where = here();
    const std::size_t index = launched_++;
    ++outstanding_;
    if (fork_scope::launch(child, index, where)) notify_forked();
    return index;
  }

  // Children launched and not taken yet.
  [[nodiscard]] std::size_t outstanding() const noexcept { return outstanding_; }

  // The child that ended earliest among those not taken yet, or nullptr when none has ended.
  fork_node* try_take() noexcept {
    if (taken_ == nullptr) {
      // acquire: pairs with the release of the pushes in on_end (the children's outcomes).
      taken_ = reversed(ended_.exchange(nullptr, std::memory_order_acquire));
    }
    fork_node* node = taken_;
    if (node != nullptr) {
      taken_ = node->next;
      --outstanding_;
    }
    return node;
  }

  // Suspends `waiter` until a child ends. False: one already has, do not suspend.
  template <class Promise>
  bool wait(std::coroutine_handle<Promise> waiter) {
    waiter_target_ = fork_target_of(waiter);
    waiter_ = waiter;
    fork_node* expected = nullptr;
    // release: publishes waiter_ to the child whose push replaces the marker (acquire in on_end).
    return ended_.compare_exchange_strong(expected, &waiting_, std::memory_order_release,
                                          std::memory_order_relaxed);
  }

 private:
  static std::coroutine_handle<> on_end(fork_scope& scope, fork_node& child) noexcept {
    auto& self = static_cast<completion_queue&>(scope);
    fork_node* const marker = &self.waiting_;
    fork_node* head = self.ended_.load(std::memory_order_relaxed);
    do {
      child.next = head == marker ? nullptr : head;
      // acq_rel: release publishes the child's outcome to try_take's acquire; acquire pairs with
      // wait's release when `head` is the marker, so waiter_ is visible below.
    } while (!self.ended_.compare_exchange_weak(head, &child, std::memory_order_acq_rel,
                                                std::memory_order_relaxed));
    // Not the marker: the owner was not waiting and may already be destroying `self`.
    if (head == marker) return continue_parent(self.waiter_target_, self.waiter_);
    return nullptr;
  }

  static fork_node* reversed(fork_node* stack) noexcept {
    fork_node* list = nullptr;
    while (stack != nullptr) {
      fork_node* next = stack->next;
      stack->next = list;
      list = stack;
      stack = next;
    }
    return list;
  }

  // Where a child spawned now runs: the running coroutine's home when bound, else its executor.
  static wake_target here() {
    const task_env* env = current_env;
    if (env != nullptr && env->home != nullptr) return {env->home, true};
    executor* ex = executor::current();
    if (ex == nullptr) throw std::logic_error("shoal: task_group::spawn outside any executor");
    return {ex, false};
  }

  std::atomic<fork_node*> ended_{nullptr};  // LIFO of ended children, or &waiting_
  fork_node waiting_;                       // the marker: never a child
  fork_node* taken_ = nullptr;              // owner only: ended children, oldest first
  std::size_t launched_ = 0;                // owner only
  std::size_t outstanding_ = 0;             // owner only
  std::coroutine_handle<> waiter_;
  wake_target waiter_target_;
};

}  // namespace shoal::detail
