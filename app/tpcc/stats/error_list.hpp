// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/error_list.hpp: the distinct errors of a run as its results carry them.
//
// What: one error_entry per (transaction type, SQLSTATE, statement family), with the first
// message, the count and the first and last time; error_list holds them (at most
// max_listed_errors) and counts apart the errors past that cap. Filled by the error log
// (stats/error_log.hpp), written and read by the JSON, merged by `merge`, shown by the HTML.
// Thread-safety: plain values.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "txn/kind.hpp"

namespace tpcc::stats {

// One distinct error of a run, as the results list it (every phase of the run).
struct error_entry {
  txn::kind kind = txn::kind::new_order;
  std::string sqlstate;   // empty: none (a connection lost, a client-side check)
  std::string outcome;    // as the driver saw it: "failed", "connection lost", ...
  std::string statement;  // the statement family (driver::family); empty: none
  std::string message;    // the first occurrence's: text from the database, never trusted
  std::uint64_t count = 0;
  std::chrono::system_clock::time_point first, last;
};

struct error_list {
  std::vector<error_entry> entries;  // ordered by type, SQLSTATE, statement
  std::uint64_t unlisted = 0;        // occurrences of distinct errors past the cap: counted only
};

// At most this many entries are listed (the error log's cap on distinct errors).
inline constexpr std::size_t max_listed_errors = 100;

}  // namespace tpcc::stats
