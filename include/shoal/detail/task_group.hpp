// shoal/detail/task_group.hpp: the awaiter behind task_group::next_result.
//
// Ready at once when no child is outstanding (the result is empty) or one has already ended;
// otherwise it waits on the completion queue (detail/completion_queue.hpp). The ended child's
// outcome is moved into an indexed_result and its frame destroyed before await_resume returns.
#pragma once

#include <coroutine>
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

}  // namespace shoal::detail
