// SPDX-License-Identifier: Apache-2.0
// A dedicated thread running jobs in order (job_thread.hpp).
#include "driver/sqlite/job_thread.hpp"

#include <utility>

namespace tpcc::driver::sqlite {

job_thread::job_thread() : thread_([this] { run(); }) {}

job_thread::~job_thread() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void job_thread::submit(std::function<void()> job) {
  {
    const std::lock_guard lock(mutex_);
    jobs_.push_back(std::move(job));
  }
  wake_.notify_one();
}

void job_thread::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
    if (jobs_.empty()) return;  // stopping, and nothing left to run
    std::function<void()> job = std::move(jobs_.front());
    jobs_.pop_front();
    lock.unlock();
    job();
    lock.lock();
  }
}

}  // namespace tpcc::driver::sqlite
