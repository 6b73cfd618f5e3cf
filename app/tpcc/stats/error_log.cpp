// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/error_log.cpp: first occurrences and rate-limited counts (see error_log.hpp).
#include "stats/error_log.hpp"

#include <algorithm>
#include <utility>

#include "driver/statement.hpp"

namespace tpcc::stats {

std::string describe_error(txn::kind k, const driver::outcome& o) {
  std::string line(txn::name(k));
  line.append(": ").append(driver::to_string(o.kind));
  if (!o.sqlstate.empty()) line.append(", SQLSTATE ").append(o.sqlstate);
  if (!o.statement.empty()) line.append(", in ").append(driver::family(o.statement));
  line.append(": ").append(o.message.empty() ? std::string("(no message)") : o.message);
  return line;
}

error_log::error_log(sink out, std::chrono::nanoseconds period, std::size_t max_distinct)
    : out_(std::move(out)),
      period_(period),
      max_distinct_(max_distinct),
      last_summary_(clock::now()) {}

void error_log::record(txn::kind k, const driver::outcome& o, clock::time_point now) {
  const std::scoped_lock lock(mutex_);
  key id{k, o.sqlstate, std::string(driver::family(o.statement)), o.message};
  auto found = seen_.find(id);
  if (found == seen_.end() && seen_.size() < max_distinct_) {
    seen_.emplace(std::move(id), seen{1, now, now, std::string(driver::to_string(o.kind))});
    if (out_) out_("error (first of its kind): " + describe_error(k, o));
  } else {
    if (found != seen_.end()) {
      ++found->second.count;
      found->second.first = std::min(found->second.first, now);
      found->second.last = std::max(found->second.last, now);
    } else {
      ++unlisted_;
    }
    // By SQLSTATE; a failure without one (a connection lost) by what the driver saw.
    ++new_[{k, o.sqlstate.empty() ? std::string(driver::to_string(o.kind))
                                  : std::string("SQLSTATE ").append(o.sqlstate)}];
    ++unsummarised_;
  }
  if (now - last_summary_ >= period_) summarise(now);
}

void error_log::flush() {
  const std::scoped_lock lock(mutex_);
  summarise(clock::now());
}

std::size_t error_log::distinct() const {
  const std::scoped_lock lock(mutex_);
  return seen_.size();
}

error_list error_log::list(clock::time_point steady_origin,
                           std::chrono::system_clock::time_point wall_origin) const {
  const auto wall = [&](clock::time_point t) {
    return wall_origin +
           std::chrono::duration_cast<std::chrono::system_clock::duration>(t - steady_origin);
  };
  const std::scoped_lock lock(mutex_);
  error_list out;
  out.unlisted = unlisted_;
  // The log keys by message too; the list by (type, SQLSTATE, statement), the first message.
  std::map<std::tuple<txn::kind, std::string, std::string>, error_entry> merged;
  for (const auto& [id, s] : seen_) {
    const auto& [k, sqlstate, statement, message] = id;
    auto [at, fresh] = merged.try_emplace({k, sqlstate, statement});
    error_entry& e = at->second;
    if (fresh || wall(s.first) < e.first) {
      e.kind = k;
      e.sqlstate = sqlstate;
      e.statement = statement;
      e.message = message;
      e.outcome = s.outcome;
      e.first = wall(s.first);
    }
    e.last = std::max(e.last, wall(s.last));
    e.count += s.count;
  }
  for (auto& [id, e] : merged) out.entries.push_back(std::move(e));
  return out;
}

void error_log::summarise(clock::time_point now) {
  last_summary_ = now;
  if (unsummarised_ == 0) return;
  std::string line = "errors: " + std::to_string(unsummarised_) + " more since the last report (";
  bool first = true;
  for (const auto& [what, n] : new_) {
    line.append(first ? "" : ", ").append(txn::name(what.first));
    line.append(" ").append(what.second).append(" x ").append(std::to_string(n));
    first = false;
  }
  line += ")";
  new_.clear();
  unsummarised_ = 0;
  if (out_) out_(line);
}

}  // namespace tpcc::stats
