// SPDX-License-Identifier: Apache-2.0
// shoal/detail/task_group.hpp: the awaiters behind task_group::next_result and the group's
// final drain.
//
// Both are ready at once when no child is outstanding (the result is empty) or one has already
// ended; otherwise they wait on the completion queue (detail/completion_queue.hpp).
// next_result moves the ended child's outcome into an indexed_result (a throwing move of the
// value reaches the body, the child's frame destroyed either way) and destroys its frame before
// await_resume returns. The drain keeps only the child's exception and destroys its frame with
// the value in it: it moves nothing, so it cannot throw, and with_task_group always gets to wait
// for every child (a group destroyed with a child outstanding would be a broken invariant).
#pragma once

#include <coroutine>
#include <exception>
#include <optional>

#include "shoal/detail/completion_queue.hpp"
#include "shoal/detail/fork.hpp"

namespace shoal {
template <class T>
class indexed_result;
}  // namespace shoal

namespace shoal::detail {

template <class T>
class next_result_awaiter {
 public:
  explicit next_result_awaiter(completion_queue& queue) noexcept : queue_(&queue) {}

  bool await_ready() noexcept {
    if (queue_->outstanding() == 0) return true;
    node_ = queue_->try_take();
    return node_ != nullptr;
  }
  template <class Promise>
  bool await_suspend(std::coroutine_handle<Promise> owner) {
    return queue_->wait(owner);
  }
  std::optional<indexed_result<T>> await_resume() {
    if (node_ == nullptr) {
      if (queue_->outstanding() == 0) return std::nullopt;
      node_ = queue_->try_take();  // woken by, or raced with, a child's end: one is there
    }
    fork_child<T> ended = fork_child<T>::adopt(*node_);
    fork_promise<T>& outcome = ended.promise();
    if (outcome.error) return indexed_result<T>::failed(outcome.index, outcome.error);
    return indexed_result<T>::succeeded(outcome.index, ended.take());
  }

 private:
  completion_queue* queue_;
  fork_node* node_ = nullptr;
};

template <class T>
class drain_awaiter {
 public:
  explicit drain_awaiter(completion_queue& queue) noexcept : queue_(&queue) {}

  bool await_ready() noexcept {
    if (queue_->outstanding() == 0) return true;
    node_ = queue_->try_take();
    return node_ != nullptr;
  }
  // wait() throws only with no executor, and a group with children outstanding has one.
  template <class Promise>
  bool await_suspend(std::coroutine_handle<Promise> owner) {
    return queue_->wait(owner);
  }
  // nullopt when every child has been taken; else the ended child's exception (null when it
  // returned). Its frame, value included, is destroyed here.
  std::optional<std::exception_ptr> await_resume() noexcept {
    if (node_ == nullptr) {
      if (queue_->outstanding() == 0) return std::nullopt;
      node_ = queue_->try_take();  // woken by, or raced with, a child's end: one is there
    }
    const fork_child<T> ended = fork_child<T>::adopt(*node_);
    return ended.promise().error;
  }

 private:
  completion_queue* queue_;
  fork_node* node_ = nullptr;
};

}  // namespace shoal::detail
