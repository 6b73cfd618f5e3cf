// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/json_pace.cpp: --rate's figures as JSON (see json_pace.hpp).
#include "report/json_pace.hpp"

namespace tpcc::report::detail {
namespace {

nlohmann::json backlog_json(const stats::backlog& b) {
  return {{"behind", b.behind}, {"oldest_seconds", b.oldest_seconds}};
}

}  // namespace

nlohmann::json pace_json(const stats::pace_totals& p) {
  return {{"offered_tpm", p.offered_tpm},
          {"window_seconds", p.window_seconds},
          {"intended", p.intended},
          {"began", p.began},
          {"max_lag_seconds", p.max_lag_seconds},
          {"backlog_at_start", backlog_json(p.at_start)},
          {"backlog_at_end", backlog_json(p.at_end)},
          {"kept_up", !p.grew()}};
}

}  // namespace tpcc::report::detail
