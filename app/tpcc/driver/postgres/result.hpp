// app/tpcc/driver/postgres/result.hpp: from libpq results to the driver's values.
//
// What: text-format results converted by column type: int2/int4/int8/oid to integers,
// float4/float8/numeric to doubles, anything else to text, NULL to monostate. Parameters go the
// other way as text. Errors become outcomes with their SQLSTATE: 40001/40P01 retryable; FATAL or
// PANIC severity, class 08 (connection exception) and 57P0x (the server shutting down) mean the
// connection is lost; anything else failed.
//
// Thread-safety: plain functions over values the caller owns.
#pragma once

#include <libpq-fe.h>

#include <memory>
#include <string>
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

// The outcome of an error result (PGRES_FATAL_ERROR and friends).
[[nodiscard]] outcome error_outcome(const PGresult& r);

// Parameters as text; `text` keeps the strings `pointers` point into (nullptr for NULL).
struct text_params {
  std::vector<std::string> text;
  std::vector<const char*> pointers;
};
void to_text(const std::vector<value>& params, text_params& out);

}  // namespace tpcc::driver::postgres
