// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/sqlite/sqlite.hpp: the SQLite driver's entry point.
//
// libsqlite3 on dedicated threads (its calls block), awaited from coroutines. Used only by
// open.cpp (and the driver's own tests): transactions see the driver interface (database.hpp),
// never this.
//
// Each connection runs on its own thread; a coroutine hands it a job and awaits it with
// shoal::foreign_completion, so no shoal worker ever blocks in SQLite. Files are opened (and
// created when missing) in WAL mode with synchronous=NORMAL and no foreign keys enforced (TPC-C
// needs none; the transactions keep the references right). Every transaction starts with
// BEGIN IMMEDIATE. See docs/tpcc/design/sqlite-driver.md.
//
// Awaiting open / connect:
//   Result: the database (a session), or failed with the path and SQLite's message.
//   Errors: std::bad_alloc; std::system_error when no thread can be started.
//   Cancellation: none: opening a local file is short.
//   Resumes on: the executor it was awaited on.
//   Thread-safety: any number of opens at once.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <variant>

#include "driver/open.hpp"
#include "driver/session.hpp"

namespace tpcc::driver::sqlite {

struct settings {
  // How long a call waits for another connection's lock before it gives up with retryable
  // (SQLITE_BUSY). Waiting honours cancellation.
  std::chrono::milliseconds busy_timeout{5000};
};

// `path` is what follows "sqlite:" in the target. Opens options.connections connections, each
// on its own thread. With BEGIN IMMEDIATE for every transaction only one of them runs at a time,
// so more than one only adds contention: 1 is the sensible value for SQLite. `options` is read
// before open() returns.
shoal::task<open_result> open(std::string path, const database_options& options,
                              settings tuning = {});

// One session on its own thread and connection, outside any pool (the pool's factory, tests).
using connect_result = std::variant<std::unique_ptr<session>, outcome>;
shoal::task<connect_result> connect(std::string path, settings tuning = {});

}  // namespace tpcc::driver::sqlite
