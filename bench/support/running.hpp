// SPDX-License-Identifier: Apache-2.0
// bench/support/running.hpp: a shoal thread_pool and an Asio io_context, each started for one
// benchmark run and stopped (work finished, threads joined) when it goes out of scope.
//
// Both keep their threads alive while idle, so a benchmark can run many iterations on them.
#pragma once

#include <asio.hpp>

#include <cstddef>
#include <thread>
#include <vector>

#include "shoal/sync_wait.hpp"
#include "shoal/thread_pool.hpp"

namespace shoal::bench {

class running_pool {
 public:
  explicit running_pool(std::size_t workers) : pool_({.workers = workers}) { pool_.start(); }
  running_pool(const running_pool&) = delete;
  running_pool& operator=(const running_pool&) = delete;
  ~running_pool() { shoal::sync_wait(pool_.stop()); }

  shoal::thread_pool& get() noexcept { return pool_; }

 private:
  shoal::thread_pool pool_;
};

// An io_context run by `threads` threads (concurrency hint `threads`) until destroyed.
class running_io_context {
 public:
  explicit running_io_context(int threads) : io_(threads) {
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { io_.run(); });
  }
  running_io_context(const running_io_context&) = delete;
  running_io_context& operator=(const running_io_context&) = delete;
  ~running_io_context() {
    guard_.reset();
    for (std::thread& t : threads_) t.join();
  }

  asio::io_context& get() noexcept { return io_; }

 private:
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> guard_ = asio::make_work_guard(io_);
  std::vector<std::thread> threads_;
};

}  // namespace shoal::bench
