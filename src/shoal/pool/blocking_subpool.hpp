// SPDX-License-Identifier: Apache-2.0
// blocking_subpool.hpp: the threads of a thread_pool that run blocking work
// (shoal/run_blocking.hpp) so that it never occupies a worker.
//
// What: a FIFO of blocking_jobs and up to `max_threads` threads started lazily: a submit starts
// one when no thread is waiting for work (and the cap allows); a thread that found nothing to do
// for `keep_alive` retires (exits; the next submit or shutdown joins it). A job runs on one of
// these threads, then posts its coroutine back to the executor it was awaited on.
//
// Stop: the pool counts the jobs submitted and not finished (`in_flight`): a job in flight is work
// to come, like an armed timer, so stop waits for it (pool_state::quiescent). The job's thread
// posts the continuation first and only then counts the job finished, so at no moment is the
// chain neither queued nor counted (the decision reads the count before the queues); when the
// count drops to zero while a stop is pending, it unparks the workers so that an idle one
// decides again (pool_state::blocking_drained).
// shutdown() (from the pool's join) wakes and joins every thread; a submit after it is refused
// (it used to start a thread nobody joined, and once the cap was reached, queue a job no thread
// would run).
//
// Thread-safety: submit from any thread; shutdown once, after the pool's workers have exited.
// Everything is under one mutex; a job's run happens outside it.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <list>
#include <mutex>
#include <thread>
#include <vector>

#include "shoal/detail/thread_pool.hpp"

namespace shoal::detail {

class pool_state;

class blocking_subpool {
 public:
  blocking_subpool(pool_state& pool, std::size_t max_threads,
                   std::chrono::milliseconds keep_alive) noexcept;
  blocking_subpool(const blocking_subpool&) = delete;
  blocking_subpool& operator=(const blocking_subpool&) = delete;
  ~blocking_subpool();

  // Queues `job`, starting a thread when none waits. Throws std::logic_error once shutdown()
  // has begun (the pool is stopped: no thread is started again), std::system_error (or
  // bad_alloc) when no thread exists and none can be started; nothing is queued then.
  void submit(blocking_job& job);
  // Jobs submitted and not finished. Any thread.
  [[nodiscard]] std::size_t in_flight() const noexcept {
    return in_flight_.load(std::memory_order_seq_cst);  // pairs with finish's fetch_sub
  }
  // Threads started and not retired. Any thread.
  [[nodiscard]] std::size_t threads() const noexcept;
  // Wakes every thread, lets them finish what is queued, and joins them.
  void shutdown() noexcept;

 private:
  using thread_list = std::list<std::thread>;
  void loop(thread_list::iterator self) noexcept;
  void finish(blocking_job& job) noexcept;
  void start_thread();  // under mutex_
  void join_exited() noexcept;

  pool_state* pool_;
  std::size_t max_threads_;
  std::chrono::milliseconds keep_alive_;
  std::atomic<std::size_t> in_flight_{0};

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  blocking_job* head_ = nullptr;  // guarded by mutex_ (FIFO: pop at head, push at tail)
  blocking_job* tail_ = nullptr;
  std::size_t queued_ = 0;
  std::size_t waiting_ = 0;  // threads waiting for a job
  bool shutting_down_ = false;
  thread_list threads_;              // running threads, each knows its own entry
  std::vector<std::thread> exited_;  // retired, to be joined
};

}  // namespace shoal::detail
