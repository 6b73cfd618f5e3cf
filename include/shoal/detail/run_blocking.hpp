// SPDX-License-Identifier: Apache-2.0
// shoal/detail/run_blocking.hpp: the awaiter behind shoal/run_blocking.hpp.
//
// The awaiter is the blocking_job (detail/thread_pool.hpp) the pool's blocking subpool runs: it
// lives in the awaiting coroutine's frame until the coroutine resumes. The subpool's thread calls
// `run` (the function, its value or exception stored here), then posts the coroutine, pinned, to
// the executor it suspended on (its chain's home when bound), and touches the awaiter no more.
#pragma once

#include <coroutine>
#include <exception>
#include <functional>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "shoal/detail/task.hpp"
#include "shoal/detail/task_env.hpp"
#include "shoal/detail/thread_pool.hpp"

namespace shoal::detail {

template <class F>
class run_blocking_awaiter : private blocking_job {
 public:
  using value_type = std::invoke_result_t<F&&>;

  run_blocking_awaiter(thread_pool* pool, F f) : pool_(pool), f_(std::move(f)) {
    this->run = &run_job;
  }
  run_blocking_awaiter(const run_blocking_awaiter&) = delete;
  run_blocking_awaiter& operator=(const run_blocking_awaiter&) = delete;

  bool await_ready() const noexcept { return false; }
  template <class Promise>
  void await_suspend(std::coroutine_handle<Promise> awaiting) {
    if (pool_ == nullptr) {
      throw std::logic_error(
          "shoal::run_blocking awaited off a thread_pool worker: pass the pool, "
          "run_blocking(pool, f)");
    }
    const wake_target target = wake_target::of(awaiting);
    if (target.where == nullptr) {
      throw std::logic_error("shoal::run_blocking awaited outside any executor");
    }
    this->resume_on = target.where;
    this->h = awaiting;
    pool_run_blocking(*pool_, *this);  // may throw: then nothing was queued
  }
  value_type await_resume() { return result_.take(); }

 private:
  static void run_job(blocking_job& job) noexcept {
    auto& self = static_cast<run_blocking_awaiter&>(job);
    try {
      if constexpr (std::is_void_v<value_type>) {
        std::invoke(std::move(self.f_));
      } else {
        self.result_.set_value(std::invoke(std::move(self.f_)));
      }
    } catch (...) {
      self.result_.set_exception(std::current_exception());
    }
  }

  thread_pool* pool_;
  F f_;
  task_result<value_type> result_;
};

}  // namespace shoal::detail
