// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/sqlite/job_thread.hpp: one dedicated thread that runs jobs in order.
//
// What: SQLite's calls block (file I/O, fsync, the busy handler's sleeps), so each connection
// lives on a thread of its own and coroutines hand it jobs (session.cpp awaits them with
// shoal::foreign_completion, which resumes the coroutine on its own worker). Jobs run one at a
// time, in submission order: a job submitted after another never starts before it finishes.
//
// Lifetime: the thread starts in the constructor; the destructor runs the jobs still queued,
// then joins. A job must not throw (it reports through its completer) and must not destroy
// its own job_thread.
// Thread-safety: submit() from any thread. Memory ordering: everything a thread did before
// submit() happens-before the job runs (the queue's mutex orders them).
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace tpcc::driver::sqlite {

class job_thread {
 public:
  job_thread();
  job_thread(const job_thread&) = delete;
  job_thread& operator=(const job_thread&) = delete;
  ~job_thread();

  void submit(std::function<void()> job);

 private:
  void run();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;  // guarded by mutex_
  bool stopping_ = false;                   // guarded by mutex_
  std::thread thread_;                      // last: starts once the rest is built
};

}  // namespace tpcc::driver::sqlite
