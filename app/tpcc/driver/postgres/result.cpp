// SPDX-License-Identifier: Apache-2.0
// Conversions between libpq results and driver values (result.hpp).
#include "driver/postgres/result.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <system_error>
#include <variant>

#include "driver/postgres/connection.hpp"

namespace tpcc::driver::postgres {

namespace {

// Type OIDs from the server's catalogue (pg_type.dat); stable across versions.
constexpr Oid int8_oid = 20;
constexpr Oid int2_oid = 21;
constexpr Oid int4_oid = 23;
constexpr Oid oid_oid = 26;
constexpr Oid float4_oid = 700;
constexpr Oid float8_oid = 701;
constexpr Oid numeric_oid = 1700;

value convert(const char* text, int length, Oid type) {
  const std::string_view s(text, static_cast<std::size_t>(length));
  switch (type) {
    case int2_oid:
    case int4_oid:
    case int8_oid:
    case oid_oid: {
      std::int64_t n = 0;
      if (std::from_chars(s.data(), s.data() + s.size(), n).ec == std::errc{}) return n;
      break;
    }
    case float4_oid:
    case float8_oid:
    case numeric_oid: {
      double d = 0;
      if (std::from_chars(s.data(), s.data() + s.size(), d).ec == std::errc{}) return d;
      break;
    }
    default:
      break;
  }
  return std::string(s);
}

std::int64_t affected_rows(const PGresult& r) {
  auto* mutable_result = const_cast<PGresult*>(&r);  // libpq's API is not const-correct here
  if (std::string_view(PQcmdStatus(mutable_result)).starts_with("SELECT")) return 0;
  const char* count = PQcmdTuples(mutable_result);
  std::int64_t n = 0;
  std::from_chars(count, count + std::strlen(count), n);
  return n;
}

bool is_connection_state(std::string_view state) {
  return state.starts_with("08") || state.starts_with("57P0");
}

std::string lowered(const char* text) {
  std::string out = text != nullptr ? text : "";
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// An internal error (XX000) a coordinator raises when its connection to a worker failed: Citus
// relays libpq's own text ("server closed the connection unexpectedly", "connection not open")
// or says so itself ("connection to the remote node h:p failed").
bool names_lost_remote(const PGresult& r) {
  static constexpr std::array<std::string_view, 9> phrases{"connection to the remote node",
                                                           "could not establish any connections",
                                                           "connection establishment for node",
                                                           "server closed the connection",
                                                           "connection not open",
                                                           "could not receive data from server",
                                                           "could not send data to server",
                                                           "lost connection",
                                                           "terminating connection"};
  const std::string primary = lowered(PQresultErrorField(&r, PG_DIAG_MESSAGE_PRIMARY));
  return std::any_of(phrases.begin(), phrases.end(),
                     [&](std::string_view p) { return primary.find(p) != std::string::npos; });
}

outcome_kind error_kind(const PGresult& r, const std::string& sqlstate, std::string_view level) {
  if (is_retryable_sqlstate(sqlstate)) return outcome_kind::retryable;
  if (level == "FATAL" || level == "PANIC") return outcome_kind::connection_lost;
  if (is_connection_state(sqlstate)) return outcome_kind::node_lost;  // relayed as an ERROR
  if (sqlstate == "XX000" && names_lost_remote(r)) return outcome_kind::node_lost;
  return outcome_kind::failed;
}

}  // namespace

statement_result to_statement_result(const PGresult& r) {
  statement_result out;
  out.affected = affected_rows(r);
  const int rows = PQntuples(&r);
  const int columns = PQnfields(&r);
  out.rows.reserve(static_cast<std::size_t>(rows));
  for (int i = 0; i < rows; ++i) {
    std::vector<value> values;
    values.reserve(static_cast<std::size_t>(columns));
    for (int c = 0; c < columns; ++c) {
      if (PQgetisnull(&r, i, c) != 0) {
        values.emplace_back(std::monostate{});
      } else {
        values.push_back(convert(PQgetvalue(&r, i, c), PQgetlength(&r, i, c), PQftype(&r, c)));
      }
    }
    out.rows.emplace_back(std::move(values));
  }
  return out;
}

outcome error_outcome(const PGresult& r) {
  const char* state = PQresultErrorField(&r, PG_DIAG_SQLSTATE);
  const char* severity = PQresultErrorField(&r, PG_DIAG_SEVERITY_NONLOCALIZED);
  std::string sqlstate = state != nullptr ? state : "";
  const outcome_kind kind = error_kind(r, sqlstate, severity != nullptr ? severity : "");
  std::string message = one_line(PQresultErrorMessage(&r));
  if (kind == outcome_kind::node_lost) message.insert(0, lost_node_prefix);
  if (kind == outcome_kind::connection_lost) message.insert(0, lost_connection_prefix);
  return outcome::make(kind, std::move(sqlstate), std::move(message));
}

void to_text(const std::vector<value>& params, text_params& out) {
  out.text.assign(params.size(), std::string());
  out.pointers.assign(params.size(), nullptr);
  for (std::size_t i = 0; i < params.size(); ++i) {
    const value& v = params[i];
    if (const auto* n = std::get_if<std::int64_t>(&v)) {
      out.text[i] = std::to_string(*n);
    } else if (const auto* d = std::get_if<double>(&v)) {
      std::array<char, 32> buffer{};
      const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), *d).ptr;
      out.text[i].assign(buffer.data(), end);
    } else if (const auto* s = std::get_if<std::string>(&v)) {
      out.text[i] = *s;
    } else {
      continue;  // NULL
    }
    out.pointers[i] = out.text[i].c_str();
  }
}

outcome lost(std::string why) {
  return outcome::make(outcome_kind::connection_lost, "",
                       std::string(lost_connection_prefix) + std::move(why));
}

}  // namespace tpcc::driver::postgres
