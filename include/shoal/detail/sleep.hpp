// shoal/detail/sleep.hpp: the awaiter behind sleep_for / sleep_until / deadline.
//
// The awaiter embeds its timer node, so a sleep allocates nothing. It arms the node on the
// executor the coroutine is running on; the node fires on that executor's thread and posts the
// coroutine to its wake target (its chain's home worker when bound).
#pragma once

#include <coroutine>
#include <cstddef>
#include <stdexcept>

#include "shoal/detail/task_env.hpp"
#include "shoal/detail/timer_node.hpp"
#include "shoal/executor.hpp"

namespace shoal::detail {

class sleep_awaiter {
 public:
  explicit sleep_awaiter(time_point deadline) noexcept { node_.deadline = deadline; }

  bool await_ready() const noexcept { return false; }
  template <class Promise>
  void await_suspend(std::coroutine_handle<Promise> h) {
    executor* ex = executor::current();
    if (ex == nullptr) throw std::logic_error("shoal: sleep awaited outside any executor");
    handle_ = h;
    target_ = wake_target::of(h);
    node_.fire = &on_fire;
    ex->add_timer(node_);
  }
  bool await_resume() const noexcept { return true; }

 private:
  static void on_fire(timer_node& node) noexcept {
    auto* self = reinterpret_cast<sleep_awaiter*>(reinterpret_cast<char*>(&node) -
                                                  offsetof(sleep_awaiter, node_));
    self->target_.post(self->handle_);
  }

  timer_node node_;
  std::coroutine_handle<> handle_;
  wake_target target_;
};

}  // namespace shoal::detail
