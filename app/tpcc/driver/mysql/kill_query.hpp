// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/mysql/kill_query.hpp: MySQL's and MariaDB's way to cancel a statement in flight.
//
// What: kill_query opens a separate, blocking connection to the same server (the target's user,
// password, host or socket and TLS settings), sends `KILL QUERY <id>` for the server thread `id`
// (mysql_thread_id of the session's connection), and closes it. The statement running there
// ends with error 1317 (query interrupted) and the session's connection is kept. It blocks the
// calling thread for one connection and one round trip, bounded by `timeout` per step; it is
// the session's cancel() (session.hpp), called off the session's coroutine.
// Thread-safety: any thread; each call uses its own handle.
#pragma once

#include <chrono>

#include "driver/mysql/uri.hpp"

namespace tpcc::driver::mysql {

/// True when the server accepted the KILL QUERY (nothing in flight is not an error to it).
[[nodiscard]] bool kill_query(const uri& target, unsigned long id,
                              std::chrono::milliseconds timeout) noexcept;

}  // namespace tpcc::driver::mysql
