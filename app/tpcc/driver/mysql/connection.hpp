// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/mysql/connection.hpp: one MariaDB Connector/C connection on shoal's reactor.
//
// What: owns a MYSQL handle in non-blocking mode (MYSQL_OPT_NONBLOCK) and the fd_watch its
// socket is registered with. Connector/C's non-blocking calls come in pairs: `x_start(...)`
// runs until the call would block and returns what it waits for (MYSQL_WAIT_READ / _WRITE /
// _TIMEOUT), `x_cont(..., ready)` resumes it once the socket is ready; 0 means done. wait()
// is the "socket is ready" half: it awaits the reactor, never blocks the worker, and returns
// the readiness to pass to `_cont`. One coroutine per connection; no thread per connection.
//
// As for libpq (postgres/connection.hpp), the reactor watches a dup() of the library's socket,
// so that the library closing its descriptor on an error can never deregister another
// connection's. The watch is edge-triggered: wait() first polls the socket without blocking
// (the library may have left data unread), then awaits the next edge.
//
// connect() sends, with the handshake, the session's settings as init commands: autocommit off
// (a transaction starts with its first statement and ends with COMMIT or ROLLBACK: no BEGIN round
// trip), the isolation level, InnoDB as the default engine, and sql_mode with PIPES_AS_CONCAT
// and ANSI quoting left off. CLIENT_FOUND_ROWS makes an UPDATE's affected count the rows it
// matched, as PostgreSQL counts them.
//
// Awaiting connect() / wait():
//   Result: connect(): ok, or why not (naming the redacted target); wait(): the readiness bits,
//           or 0 when cancelled or the socket cannot be watched.
//   Errors: std::bad_alloc only.
//   Cancellation: the chain's stop token: the wait ends at once (0); the caller then closes the
//                 connection, whose state is unknown.
//   Resumes on: the executor it was awaited on (a thread_pool worker: fd_watch needs one).
//   Thread-safety: one coroutine at a time.
#pragma once

#include <mysql.h>

#include <chrono>
#include <string>

#include "driver/isolation.hpp"
#include "driver/mysql/uri.hpp"
#include "driver/outcome.hpp"
#include "shoal/fd_watch.hpp"
#include "shoal/task.hpp"

namespace tpcc::driver::mysql {

class connection {
 public:
  connection() = default;
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;
  ~connection() { close(); }

  shoal::task<outcome> connect(const uri& target, const std::string& shown, isolation level,
                               std::chrono::milliseconds timeout);
  // Waits for what `status` (a `_start`/`_cont` return) asks; the bits to pass to `_cont`.
  shoal::task<int> wait(int status);

  // Deregisters the socket and frees the handle (no goodbye is sent). Idempotent.
  void close() noexcept;
  [[nodiscard]] MYSQL* handle() const noexcept { return mysql_; }
  [[nodiscard]] bool open() const noexcept { return mysql_ != nullptr; }
  // While no call is in progress: false when the server has closed the connection.
  [[nodiscard]] bool idle_and_alive() const noexcept;

 private:
  bool watch();
  void unwatch() noexcept;

  MYSQL* mysql_ = nullptr;
  bool connected_ = false;
  int library_fd_ = -1;  // the library's socket we watch a dup() of
  int watched_fd_ = -1;  // our dup()
  shoal::fd_watch watch_;
};

// The SQL isolation level clause for `level` ("READ COMMITTED", ...).
[[nodiscard]] const char* isolation_sql(isolation level) noexcept;
// The target's TLS settings (?ssl=...) on a handle not yet connected.
void apply_tls(MYSQL* handle, const uri& target) noexcept;

}  // namespace tpcc::driver::mysql
