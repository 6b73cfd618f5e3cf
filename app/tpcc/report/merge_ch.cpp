// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/merge_ch.cpp: the shards' analytic sides as one (see merge_ch.hpp).
#include "report/merge_ch.hpp"

#include <cstddef>

namespace tpcc::report {

std::optional<std::string> different_analytic_side(const run::ch_totals& a, const run::ch_totals& b,
                                                   const std::string& file_a) {
  if (a.ran() == b.ran()) return std::nullopt;
  return std::string(b.ran() ? "ran analytic streams (CH-benCHmark), "
                             : "ran no analytic streams, ")
      .append(file_a)
      .append(b.ran() ? " did not" : " did")
      .append(" (a CH-benCHmark result and a TPC-C one do not merge)");
}

void add_ch(run::ch_totals& a, const run::ch_totals& b) {
  a.streams += b.streams;
  for (std::size_t i = 0; i < a.queries.size() && i < b.queries.size(); ++i) {
    run::ch_query_totals& mine = a.queries[i];
    const run::ch_query_totals& theirs = b.queries[i];
    mine.completed += theirs.completed;
    mine.failed += theirs.failed;
    mine.cancelled += theirs.cancelled;
    mine.latency.merge(theirs.latency);
    if (mine.last_rows < 0) mine.last_rows = theirs.last_rows;
  }
}

}  // namespace tpcc::report
