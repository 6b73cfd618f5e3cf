// SPDX-License-Identifier: Apache-2.0
// shoal/thread_bound.hpp: thread-bound jobs on a bounded share of the workers (asynqro's
// ThreadBound task type).
//
// What: a `thread_bound` names the first `count()` workers of a pool, a share of them (a
// quarter by default, at least one), as the ones that run thread-bound jobs. A job spawned with
// a key runs bound to worker `worker_for(key)`, `key % count()`: every job of one key runs on
// one thread, in the order spawned up to its first suspension (the worker's pinned queue is
// first in, first out), and each resumes there after every await. Jobs of keys that hash to
// different workers run in parallel. Code that keeps per-thread state (a thread-affine client
// library, a thread-local cache) gets a stable thread per key without holding the whole pool:
// the other workers never run a thread-bound job (unbound work still runs on every worker, and
// no worker steals a bound one).
//   - spawn(key, task): detached, as thread_pool::spawn_on.
//   - run(key, work): as spawn_future_on (shoal/future_run.hpp): a cancelable future of the
//     result, whose cancel() requests stop of the job.
//
// Lifetime: a value: it refers to the pool, which must outlive it and every job it spawned
// (thread_pool::stop waits for them). Thread-safety: const methods, any thread.
// Memory ordering: as thread_pool::spawn_on (the spawn happens-before the job runs).
//
// Example:
//   shoal::thread_bound bound(pool);                 // a quarter of the workers, at least one
//   bound.spawn(session_id, serve(session_id));      // every job of a session on one thread
//   auto f = bound.run(session_id, [] { return 42; });
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>

#include "shoal/future_run.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"

namespace shoal {

class thread_bound {
 public:
  // `share` of the pool's workers, rounded up, at least one, at most all. Errors:
  // std::invalid_argument unless 0 < share <= 1.
  explicit thread_bound(thread_pool& pool, double share = 0.25) : pool_(&pool) {
    if (!(share > 0.0 && share <= 1.0)) {
      throw std::invalid_argument("shoal::thread_bound: share must be in (0, 1]");
    }
    const auto workers = static_cast<double>(pool.size());
    const auto wanted = static_cast<std::size_t>(workers * share + 0.999999);
    count_ = wanted < 1 ? 1 : (wanted > pool.size() ? pool.size() : wanted);
  }

  // How many workers run thread-bound jobs: workers 0 .. count() - 1.
  [[nodiscard]] std::size_t count() const noexcept { return count_; }
  // The worker every job of `key` runs on.
  [[nodiscard]] std::size_t worker_for(std::uint64_t key) const noexcept {
    return static_cast<std::size_t>(key % count_);
  }

  // Starts `t` detached, bound to worker_for(key). Errors: std::bad_alloc.
  void spawn(std::uint64_t key, task<void> t) const {
    pool_->spawn_on(worker_for(key), std::move(t));
  }

  // Runs `work` (a task, or a function returning a value, a task or a future) bound to
  // worker_for(key); a cancelable future of its result (see spawn_future_on).
  template <class E = std::exception_ptr, class Work>
    requires detail::spawnable_work<Work>
  [[nodiscard]] auto run(std::uint64_t key, Work&& work) const {
    return spawn_future_on<E>(*pool_, worker_for(key), std::forward<Work>(work));
  }

 private:
  thread_pool* pool_;
  std::size_t count_ = 1;
};

}  // namespace shoal
