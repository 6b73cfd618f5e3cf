// SPDX-License-Identifier: Apache-2.0
// The threads behind shoal::run_blocking (blocking_subpool.hpp).
#include "pool/blocking_subpool.hpp"

#include <pthread.h>

#include <stdexcept>
#include <utility>

#include "pool/pool_state.hpp"

namespace shoal::detail {

blocking_subpool::blocking_subpool(pool_state& pool, std::size_t max_threads,
                                   std::chrono::milliseconds keep_alive) noexcept
    : pool_(&pool), max_threads_(max_threads == 0 ? 1 : max_threads), keep_alive_(keep_alive) {}

blocking_subpool::~blocking_subpool() { shutdown(); }

std::size_t blocking_subpool::threads() const noexcept {
  const std::lock_guard lock(mutex_);
  return threads_.size();
}

void blocking_subpool::submit(blocking_job& job) {
  std::vector<std::thread> exited;
  {
    std::unique_lock lock(mutex_);
    if (shutting_down_) {  // joined: a thread started now would never be
      throw std::logic_error("shoal::run_blocking: the thread_pool is stopped");
    }
    if (waiting_ <= queued_ && threads_.size() < max_threads_) {
      try {
        start_thread();
      } catch (...) {
        if (threads_.empty()) throw;  // nobody would run it: refuse, nothing queued
      }
    }
    job.next = nullptr;
    if (tail_ != nullptr) {
      tail_->next = &job;
    } else {
      head_ = &job;
    }
    tail_ = &job;
    ++queued_;
    // seq_cst: counted before any thread can finish it (it is queued under this lock).
    in_flight_.fetch_add(1, std::memory_order_seq_cst);
    exited.swap(exited_);
  }
  wake_.notify_one();
  for (std::thread& t : exited) t.join();
}

void blocking_subpool::start_thread() {
  const auto self = threads_.emplace(threads_.end());
  try {
    *self = std::thread([this, self] { loop(self); });
  } catch (...) {
    threads_.erase(self);
    throw;
  }
  pthread_setname_np(self->native_handle(), "shoal-blocking");
}

void blocking_subpool::loop(thread_list::iterator self) noexcept {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (head_ == nullptr && !shutting_down_) {
      ++waiting_;
      const bool woken =
          wake_.wait_for(lock, keep_alive_, [this] { return head_ != nullptr || shutting_down_; });
      --waiting_;
      if (!woken) {  // idle for keep_alive: retire (the next submit or shutdown joins us)
        exited_.push_back(std::move(*self));
        threads_.erase(self);
        return;
      }
    }
    if (head_ == nullptr) return;  // shutting down with nothing queued
    blocking_job& job = *std::exchange(head_, head_->next);
    if (head_ == nullptr) tail_ = nullptr;
    --queued_;
    lock.unlock();
    finish(job);
    lock.lock();
  }
}

void blocking_subpool::finish(blocking_job& job) noexcept {
  job.run(job);  // f and its outcome; never throws
  executor* where = job.resume_on;
  std::coroutine_handle<> h = job.h;
  where->post(h, true);  // from here on the job (in the awaiting frame) may be gone
  // seq_cst: pairs with the stop decision's read of in_flight() (pool_state::quiescent), and
  // orders this before blocking_drained's read of the stop request.
  if (in_flight_.fetch_sub(1, std::memory_order_seq_cst) == 1) pool_->blocking_drained();
}

void blocking_subpool::join_exited() noexcept {
  std::vector<std::thread> exited;
  {
    const std::lock_guard lock(mutex_);
    exited.swap(exited_);
  }
  for (std::thread& t : exited) t.join();
}

void blocking_subpool::shutdown() noexcept {
  thread_list running;
  {
    const std::lock_guard lock(mutex_);
    shutting_down_ = true;
  }
  wake_.notify_all();
  // Each thread finishes what is queued and exits; it stays in threads_ (only a retiring thread
  // removes itself, and none retires once shutting down), so join them all, then the retired.
  {
    const std::lock_guard lock(mutex_);
    running.swap(threads_);
  }
  for (std::thread& t : running) {
    if (t.joinable()) t.join();
  }
  join_exited();
}

}  // namespace shoal::detail
