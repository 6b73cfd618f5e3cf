// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/endpoint_outage.cpp: an endpoint's outage (see endpoint_outage.hpp).
#include "report/endpoint_outage.hpp"

#include "report/endpoints.hpp"
#include "report/text.hpp"

namespace tpcc::report {

endpoint_outage outage_of(const run::endpoint_result& e) {
  endpoint_outage o;
  o.sessions_replaced = e.sessions_replaced;
  if (e.series.empty()) {
    o.lost = lost_all(e.results);
    return o;
  }
  for (const stats::endpoint_interval& i : e.series) {
    if (i.lost == 0) continue;
    if (o.intervals == 0) o.from_seconds = i.start_seconds;
    o.to_seconds = i.end_seconds;
    o.lost += i.lost;
    ++o.intervals;
  }
  return o;
}

std::string outage_text(const endpoint_outage& o) {
  if (!o.happened()) return {};
  std::string out =
      format("OUTAGE: %llu transaction(s) lost", static_cast<unsigned long long>(o.lost));
  if (o.intervals > 0) {
    out += format(" between %.1f s and %.1f s of the run (%zu interval(s))", o.from_seconds,
                  o.to_seconds, o.intervals);
  }
  return out +
         format(", %llu session(s) replaced", static_cast<unsigned long long>(o.sessions_replaced));
}

std::vector<std::string> endpoint_outages(const run::run_result& r) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < r.endpoints.size(); ++i) {
    const endpoint_outage o = outage_of(r.endpoints[i]);
    if (!o.happened()) continue;
    out.push_back(format("endpoint %zu/%zu (", i + 1, r.endpoints.size()) + r.endpoints[i].target +
                  "): " + outage_text(o));
  }
  return out;
}

}  // namespace tpcc::report
