// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/postgres/connection.hpp: one libpq connection driven by shoal's reactor.
//
// What: owns a PGconn in non-blocking pipeline mode and the fd_watch its socket is registered
// with. connect() runs libpq's non-blocking connect (PQconnectStartParams / PQconnectPoll)
// under a timer; flush() sends what libpq buffered, waiting for write space; wait_result()
// waits until PQgetResult will not block. Notices are swallowed: libpq never prints.
//
// The reactor watches a dup() of libpq's socket, not the socket itself: libpq closes its
// descriptor by itself when the connection breaks, and the number may then be reused by another
// connection registered with the same reactor; deregistering our own duplicate can never touch
// that one. The connect loop registers afresh at every step, since libpq may switch sockets
// (several hosts, SSL fallback).
//
// Awaiting connect() / flush() / wait_result():
//   Result: connect(): the outcome (ok, or why not, naming the target); the others: io_status.
//   Errors: std::bad_alloc only.
//   Cancellation: the chain's stop token: the wait ends at once with io_status::cancelled (or
//                 failed "cancelled" from connect); the caller then closes the connection.
//   Resumes on: the executor it was awaited on (a thread_pool worker: fd_watch needs one).
//   Thread-safety: one coroutine at a time.
#pragma once

#include <libpq-fe.h>

#include <chrono>
#include <cstdint>
#include <string>

#include "driver/outcome.hpp"
#include "shoal/fd_watch.hpp"
#include "shoal/task.hpp"

namespace tpcc::driver::postgres {

enum class io_status : std::uint8_t { ok, cancelled, broken };

class connection {
 public:
  connection() = default;
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;
  ~connection() { close(); }

  // `conninfo`: a libpq URI or key/value string; `shown`: the same, redacted, for messages.
  shoal::task<outcome> connect(const std::string& conninfo, const std::string& shown,
                               std::chrono::milliseconds timeout);
  shoal::task<io_status> flush();
  shoal::task<io_status> wait_result();

  // Deregisters the socket and closes the connection. Idempotent.
  void close() noexcept;
  [[nodiscard]] PGconn* handle() const noexcept { return conn_; }
  [[nodiscard]] bool open() const noexcept { return conn_ != nullptr; }
  // While no call is in progress: false when the server has closed the connection (or sent
  // something unexpected), found without blocking.
  [[nodiscard]] bool idle_and_alive() noexcept;

 private:
  shoal::task<io_status> poll_connect();
  shoal::task<bool> readable();
  bool watch(int fd);
  void unwatch() noexcept;

  PGconn* conn_ = nullptr;
  int watched_fd_ = -1;  // our dup() of libpq's socket
  shoal::fd_watch watch_;
};

// The libpq error message of `conn` on one line.
[[nodiscard]] std::string one_line(const char* message);

}  // namespace tpcc::driver::postgres
