// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/mysql/dialect.hpp: a driver statement as MySQL runs it, and its errors.
//
// What: `steps_of` reads a statement (statement.hpp): its `mysql` text when it has one, else its
// `sql`, split into the statements separated by ';' (outside quotes), each with every $n turned
// into a `?` and the index of the parameter it binds (n - 1), in order: MySQL's placeholders are
// positional, so a parameter used twice is bound twice. A text that starts with CREATE PROCEDURE
// is one statement whatever its body holds (its ';' are the body's); a step that starts with
// CALL is marked as such: its result set, if any, is followed by the CALL's own status, which the
// session reads as part of the same step (my_session.hpp).
// `error_outcome` classifies a server or client error number:
//   retryable        1213 (deadlock: InnoDB rolled the transaction back), 1205 (lock wait
//                    timeout), 1020 (record changed since last read, snapshot isolation);
//                    TiDB's write conflicts, the transaction rolled back: 8002 (one with
//                    SELECT ... FOR UPDATE), 8005 and 9007 (optimistic transactions);
//   connection_lost  2002, 2003, 2006, 2013, 2055 (the client lost the server), 1053 (the
//                    server is shutting down), 1927 (this connection was killed), 4031 (the
//                    server closed an idle connection); the message starts with
//                    "connection to the server lost: ";
//   failed           anything else, with its SQLSTATE.
// The message reads "MySQL error 1062 (23000): Duplicate entry ...".
//
// Thread-safety: plain functions over values the caller owns.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "driver/outcome.hpp"
#include "driver/statement.hpp"

namespace tpcc::driver::mysql {

struct step {
  std::string sql;                  // with ? placeholders
  std::vector<std::size_t> params;  // the call's parameter index for each ?, in order
  bool is_call = false;             // a CALL of a stored procedure
};

[[nodiscard]] std::vector<step> steps_of(std::string_view text);
[[nodiscard]] std::vector<step> steps_of(const statement& stmt);

[[nodiscard]] outcome error_outcome(unsigned code, std::string_view sqlstate,
                                    std::string_view message);
[[nodiscard]] outcome lost(std::string message);

}  // namespace tpcc::driver::mysql
