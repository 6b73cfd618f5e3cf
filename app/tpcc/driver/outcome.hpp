// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/outcome.hpp: how a database call ended, as a value.
//
// What: transactions never catch driver exceptions; every call returns an outcome.
//   ok              the call did what was asked.
//   rolled_back     the transaction was rolled back as asked (New-Order's unused item).
//   retryable       the database refused for concurrency: serialization failure (SQLSTATE
//                   40001) or deadlock (40P01), or SQLite's BUSY; the whole transaction may be
//                   retried after rolling back.
//   connection_lost the client's connection broke (socket closed or reset, or the server ended
//                   this session); the transaction's fate is unknown to the client.
//   node_lost       the server answered that a node it needs is gone (a distributed database's
//                   coordinator losing a worker: SQLSTATE class 08 or 57P0x relayed, or XX000
//                   naming a lost remote connection); the transaction is aborted, the client's
//                   own connection is still usable once rolled back.
//   failed          anything else (constraint violation, syntax, a bad schema): `message` says
//                   what, `sqlstate` the code when the database gave one.
// Messages never contain a password (drivers redact connection strings before quoting them).
//
// Thread-safety: plain values.
#pragma once

#include <string>
#include <string_view>
#include <utility>

namespace tpcc::driver {

enum class outcome_kind { ok, rolled_back, retryable, connection_lost, node_lost, failed };

[[nodiscard]] constexpr const char* to_string(outcome_kind k) noexcept {
  switch (k) {
    case outcome_kind::ok:
      return "ok";
    case outcome_kind::rolled_back:
      return "rolled back";
    case outcome_kind::retryable:
      return "retryable";
    case outcome_kind::connection_lost:
      return "connection lost";
    case outcome_kind::node_lost:
      return "node lost";
    case outcome_kind::failed:
      return "failed";
  }
  return "?";
}

struct outcome {
  outcome_kind kind = outcome_kind::ok;
  std::string sqlstate;  // five characters when the database gave one, else empty
  std::string message;   // empty when ok
  // The statement that failed (a statement's name, BEGIN, COMMIT...), when the driver knows.
  std::string_view statement;

  [[nodiscard]] bool ok() const noexcept { return kind == outcome_kind::ok; }
  [[nodiscard]] static outcome success() { return {}; }
  [[nodiscard]] static outcome make(outcome_kind k, std::string state, std::string text) {
    return {k, std::move(state), std::move(text), {}};
  }
};

// SQLSTATEs that mean "retry the transaction": serialization failure and deadlock.
[[nodiscard]] inline bool is_retryable_sqlstate(const std::string& state) noexcept {
  return state == "40001" || state == "40P01";
}

}  // namespace tpcc::driver
