// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/postgres/result.hpp: from libpq results to the driver's values.
//
// What: text-format results converted by column type: int2/int4/int8/oid to integers,
// float4/float8/numeric to doubles, anything else to text, NULL to monostate. Parameters go the
// other way as text. Errors become outcomes with their SQLSTATE:
//   retryable        40001, 40P01;
//   connection_lost  FATAL or PANIC severity (the server ends this session); the message
//                    starts with "connection to the server lost: " (pg_session adds the case of
//                    the socket closing: libpq's own error with the connection gone bad);
//   node_lost        an ERROR (the session goes on) of class 08 or 57P0x, which only a server
//                    relaying a remote node's failure raises at that severity (Citus: 08006 for
//                    a worker it cannot reach), or an XX000 whose primary message says a remote
//                    connection failed (Citus relays libpq's "server closed the connection
//                    unexpectedly" so); the message starts with "the database reported a lost
//                    node: ";
//   failed           anything else.
//
// Thread-safety: plain functions over values the caller owns.
#pragma once

#include <libpq-fe.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "driver/outcome.hpp"
#include "driver/statement.hpp"
#include "driver/value.hpp"

namespace tpcc::driver::postgres {

struct result_deleter {
  void operator()(PGresult* r) const noexcept { PQclear(r); }
};
using result_ptr = std::unique_ptr<PGresult, result_deleter>;

// Rows and affected count of a successful result (PGRES_COMMAND_OK or PGRES_TUPLES_OK).
[[nodiscard]] statement_result to_statement_result(const PGresult& r);

inline constexpr std::string_view lost_connection_prefix = "connection to the server lost: ";
inline constexpr std::string_view lost_node_prefix = "the database reported a lost node: ";

// A connection_lost outcome: lost_connection_prefix, then `why`.
[[nodiscard]] outcome lost(std::string why);

// The outcome of an error result (PGRES_FATAL_ERROR and friends).
[[nodiscard]] outcome error_outcome(const PGresult& r);

// Parameters as text; `text` keeps the strings `pointers` point into (nullptr for NULL).
struct text_params {
  std::vector<std::string> text;
  std::vector<const char*> pointers;
};
void to_text(const std::vector<value>& params, text_params& out);

}  // namespace tpcc::driver::postgres
