// shoal::thread_pool's public surface (shoal/thread_pool.hpp) over pool_state and its workers.
#include "shoal/thread_pool.hpp"

#include <exception>
#include <stdexcept>
#include <string>

#include "pool/pool_state.hpp"
#include "pool/worker.hpp"
#include "shoal/detail/root_task.hpp"

namespace shoal {

thread_pool::thread_pool(thread_pool_options options)
    : state_(std::make_unique<detail::pool_state>(*this, options)) {}

thread_pool::~thread_pool() {
  // Started and never stopped: its threads would run on a destroyed pool. A bug, not an outcome.
  if (state_->running()) std::terminate();
}

void thread_pool::start() { state_->start(); }

bool thread_pool::begin_stop() { return state_->begin_stop(); }

void thread_pool::finish_stop_when_idle(executor* resume_on, std::coroutine_handle<> h) {
  state_->on_finished(resume_on, h);
}

void thread_pool::join() { state_->join(); }

std::size_t thread_pool::size() const noexcept { return state_->size(); }

executor& thread_pool::worker(std::size_t k) {
  if (k >= size()) throw std::out_of_range("shoal::thread_pool: no worker " + std::to_string(k));
  return state_->at(k);
}

worker_stats thread_pool::stats(std::size_t k) const {
  if (k >= size()) throw std::out_of_range("shoal::thread_pool: no worker " + std::to_string(k));
  return state_->at(k).stats();
}

std::uint64_t thread_pool::shuffle_seed() const noexcept { return state_->shuffle_seed(); }

thread_pool* thread_pool::current() noexcept {
  detail::worker* w = detail::worker::current();
  return w != nullptr ? &w->pool().owner() : nullptr;
}

void thread_pool::post(std::coroutine_handle<> h) noexcept {
  detail::worker* w = detail::worker::current();
  if (w != nullptr && &w->pool() == state_.get()) {
    w->post(h, false);
  } else {
    state_->push_global(h);
  }
}

detail::pool_schedule_on_awaiter thread_pool::schedule_on(std::size_t k) {
  return detail::pool_schedule_on_awaiter(worker(k));
}

void thread_pool::spawn(task<void> t) {
  post(detail::run_root<void>(std::move(t), nullptr).start_with(&detail::destroy_root, nullptr));
}

void thread_pool::spawn(task<void> t, std::stop_token token) {
  post(detail::run_detached_under<void>(std::move(t), std::move(token))
           .start_with(&detail::destroy_root, nullptr));
}

void thread_pool::spawn_on(std::size_t k, task<void> t) {
  executor& w = worker(k);
  w.post(
      detail::run_root<void>(std::move(t), nullptr).start_with(&detail::destroy_root, nullptr, &w),
      true);
}

void thread_pool::spawn_on(std::size_t k, task<void> t, std::stop_token token) {
  executor& w = worker(k);
  w.post(detail::run_detached_under<void>(std::move(t), std::move(token))
             .start_with(&detail::destroy_root, nullptr, &w),
         true);
}

namespace detail {

void pool_post(thread_pool& pool, std::coroutine_handle<> h) noexcept { pool.post(h); }

bool pool_stop_awaiter::await_ready() {
  // Checked before anything else: a worker awaiting its own pool's stop would join itself.
  if (thread_pool::current() == pool_) {
    throw std::logic_error("shoal::thread_pool::stop awaited on one of the pool's own workers");
  }
  return !pool_->begin_stop();
}

void pool_stop_awaiter::await_suspend(std::coroutine_handle<> h) {
  executor* here = executor::current();
  if (here == nullptr)
    throw std::logic_error("shoal::thread_pool::stop awaited outside an executor");
  pool_->finish_stop_when_idle(here, h);
}

void pool_stop_awaiter::await_resume() { pool_->join(); }

}  // namespace detail
}  // namespace shoal
