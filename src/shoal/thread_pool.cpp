// SPDX-License-Identifier: Apache-2.0
// shoal::thread_pool's public surface (shoal/thread_pool.hpp) over pool_state and its workers.
#include "shoal/thread_pool.hpp"

#include <coroutine>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

#include "pool/pool_state.hpp"
#include "pool/worker.hpp"
#include "shoal/detached_task.hpp"
#include "shoal/detail/root_task.hpp"

namespace shoal {

thread_pool::thread_pool(thread_pool_options options)
    : state_(std::make_unique<detail::pool_state>(*this, options)) {}

thread_pool::~thread_pool() {
  // Started and never stopped: its threads would run on a destroyed pool. A bug, not an outcome.
  if (state_->running()) std::terminate();
}

void thread_pool::start() { state_->start(); }

bool thread_pool::running() const noexcept { return state_->running(); }

void thread_pool::request_stop(executor* resume_on, std::coroutine_handle<> h,
                               std::size_t* refused) {
  state_->request_stop(resume_on, h, refused);
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

std::size_t thread_pool::blocking_thread_count() const noexcept {
  return state_->blocking().threads();
}

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

// A spawned root counts itself in the pool until it ends (stop refuses while any is left).
std::coroutine_handle<> thread_pool::spawned_root(detail::root_task root, executor* home) {
  state_->count_spawned();  // nothing below throws
  return root.start_with(&detail::pool_state::spawned_ended, state_.get(), home);
}

// From outside the pool the task itself is queued, and the worker that takes it makes its root
// (pool_state::runnable): one frame written by the poster per spawn instead of two.
void thread_pool::spawn(task<void> t) {
  detail::worker* w = detail::worker::current();
  if (w != nullptr && &w->pool() == state_.get()) {
    w->post(spawned_root(detail::run_root<void>(std::move(t), nullptr), nullptr), false);
  } else {
    state_->push_spawned(t.release());
  }
}

// A token nothing can stop changes nothing the chain sees (its env's default stop cannot be
// stopped either), so the chain takes spawn(t)'s path: from outside the pool, one frame written
// by the poster instead of two (spawn_future's jobs of work that runs no coroutine, issue 36).
void thread_pool::spawn(task<void> t, std::stop_token token) {
  if (!token.stop_possible()) {
    spawn(std::move(t));
    return;
  }
  post(spawned_root(detail::run_detached_under<void>(std::move(t), std::move(token)), nullptr));
}

void thread_pool::spawn_on(std::size_t k, task<void> t) {
  executor& w = worker(k);
  w.post(spawned_root(detail::run_root<void>(std::move(t), nullptr), &w), true);
}

void thread_pool::spawn_on(std::size_t k, task<void> t, std::stop_token token) {
  if (!token.stop_possible()) {
    spawn_on(k, std::move(t));
    return;
  }
  executor& w = worker(k);
  w.post(spawned_root(detail::run_detached_under<void>(std::move(t), std::move(token)), &w), true);
}

void thread_pool::spawn_on(std::size_t k, detached_task t, std::stop_token token) {
  executor& w = worker(k);
  const std::coroutine_handle<detail::detached_promise> h = t.release();
  state_->count_spawned();  // nothing below throws
  h.promise().start(*state_, w, std::move(token));
  w.post(h, true);
}

namespace detail {

void end_detached(pool_state& pool, std::coroutine_handle<> frame) noexcept {
  pool_state::spawned_ended(&pool, frame);
}

void pool_post(thread_pool& pool, std::coroutine_handle<> h) noexcept { pool.post(h); }

thread_pool* executor_pool() noexcept {
  worker* w = worker::current();
  return w != nullptr && executor::current() == w ? &w->pool().owner() : nullptr;
}

void pool_run_blocking(thread_pool& pool, blocking_job& job) {
  pool.state_->blocking().submit(job);
}

bool pool_stop_awaiter::await_ready() {
  // Checked before anything else: a worker awaiting its own pool's stop would join itself.
  if (thread_pool::current() == pool_) {
    throw std::logic_error("shoal::thread_pool::stop awaited on one of the pool's own workers");
  }
  return !pool_->running();
}

void pool_stop_awaiter::await_suspend(std::coroutine_handle<> h) {
  executor* here = executor::current();
  if (here == nullptr)
    throw std::logic_error("shoal::thread_pool::stop awaited outside an executor");
  pool_->request_stop(here, h, &refused_);
}

void pool_stop_awaiter::await_resume() {
  if (refused_ != 0) {
    throw std::logic_error("shoal::thread_pool::stop refused: " + std::to_string(refused_) +
                           " chain(s) started by spawn/spawn_on still suspended with no work "
                           "ready and no timer armed; end them, then stop again (the pool keeps "
                           "running)");
  }
  pool_->join();
}

}  // namespace detail
}  // namespace shoal
