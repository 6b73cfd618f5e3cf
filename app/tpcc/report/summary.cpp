// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/summary.cpp: the final text summary (see summary.hpp).
#include "report/summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "driver/target.hpp"
#include "report/ch_report.hpp"
#include "report/endpoints.hpp"
#include "report/json_detail.hpp"
#include "report/rate.hpp"
#include "report/steps_text.hpp"
#include "report/text.hpp"
#include "report/verdict.hpp"
#include "txn/kind.hpp"

namespace tpcc::report {
namespace {

double ms(std::uint64_t micros) { return static_cast<double>(micros) / 1000.0; }

// A percentile in milliseconds, "-" when the histogram has no sample.
std::string percentile_ms(const stats::histogram& h, double fraction) {
  return h.count() == 0 ? std::string("-") : format("%.1f", ms(h.percentile(fraction)));
}

std::string mode_line(const run::run_result& r) {
  if (r.paced()) return "  mode        " + rate_mode_text(r) + "\n";
  if (r.wait_scale == 1.0) return "  mode        TPC-C: keying and think times as the spec\n";
  if (r.wait_scale == 0.0) {
    return "  mode        NOT TPC-C: --no-wait (no keying or think times), a stress test\n";
  }
  return format("  mode        NOT TPC-C: keying and think times scaled by %g\n", r.wait_scale);
}

std::string shard_line(const run::run_result& r) {
  if (r.config.shard.count <= 1) return {};
  return format("  shard       %lld/%lld: warehouses %lld..%lld of %lld\n",
                static_cast<long long>(r.config.shard.index),
                static_cast<long long>(r.config.shard.count),
                static_cast<long long>(r.first_warehouse), static_cast<long long>(r.last_warehouse),
                static_cast<long long>(r.warehouses));
}

std::string isolation_line(const run::run_result& r, const std::string& target) {
  return "  isolation   " + isolation_text(r, target) + "\n";
}

// "1 worker", "2 workers".
std::string counted(std::size_t n, const char* noun) {
  std::string out = std::to_string(n);
  out.append(" ").append(noun);
  if (n != 1) out.append("s");
  return out;
}

// Where, when and with what the result was obtained; what an older or merged file lacks is
// left out.
std::string origin_lines(const run::run_result& r) {
  const run::provenance& p = r.origin;
  std::string out;
  if (!p.server_version.empty()) out.append("  server      ").append(p.server_version).append("\n");
  if (!p.version.empty()) {
    out +=
        format("  client      shoal-tpcc %s (commit %s) on %s, %s, %s, %s\n", p.version.c_str(),
               p.commit.c_str(), p.host.c_str(), counted(p.cores, "core").c_str(),
               counted(p.workers, "worker").c_str(), counted(p.connections, "connection").c_str());
  }
  if (!p.command_line.empty()) out.append("  command     ").append(p.command_line).append("\n");
  out.append("  time        ")
      .append(detail::iso_utc(r.started))
      .append(" to ")
      .append(detail::iso_utc(r.ended))
      .append("\n");
  return out;
}

// A stall this long gets its own line in the summary (the verdict always names it).
constexpr double stall_worth_a_line_seconds = 5.0;

// The transactions in flight when the window ended, by type, and how many of them were
// abandoned; empty when none.
std::string in_flight_line(const run::run_result& r) {
  std::string list;
  for (const txn::kind k : txn::all_kinds) {
    const stats::kind_totals& t = r.results.kinds[txn::index(k)];
    if (t.in_flight_at_end == 0) continue;
    list += format("%s%s %llu (%llu over %g s, %llu abandoned)", list.empty() ? "" : ", ",
                   std::string(txn::name(k)).c_str(),
                   static_cast<unsigned long long>(t.in_flight_at_end),
                   static_cast<unsigned long long>(t.in_flight_over_limit),
                   txn::p90_limit_seconds[txn::index(k)],
                   static_cast<unsigned long long>(t.outcomes[stats::txn_outcome::abandoned]));
  }
  return list.empty() ? std::string() : "  in flight   at the window's end: " + list + "\n";
}

std::string header(const run::run_result& r, const std::string& target) {
  std::string out;
  if (is_simulated(target)) out += capacity_mode_line;
  if (!r.ch.ran()) {
    out += "shoal-tpcc result\n";
  } else {
    out += r.terminals == 0 ? "shoal-tpcc result: CH-benCHmark (the analytic streams alone), "
                            : "shoal-tpcc result: CH-benCHmark (analytic streams beside the "
                              "terminals), ";
    out += "not a TPC-C result\n";
  }
  out.append("  database    ").append(target).append("\n");
  out += mode_line(r);
  if (r.config.procedures) out += "  procedures  each transaction one stored-procedure call\n";
  out += origin_lines(r);
  out += isolation_line(r, target);
  out += format("  warehouses  %lld, terminals %lld%s\n", static_cast<long long>(r.warehouses),
                static_cast<long long>(r.terminals),
                r.config.terminals_per_warehouse == 10
                    ? ""
                    : format(" (%lld per warehouse: NOT TPC-C, clause 4.2.2 says 10)",
                             static_cast<long long>(r.config.terminals_per_warehouse))
                          .c_str());
  out += shard_line(r);
  out += format("  seed        %llu (--seed %llu draws the same inputs again)\n",
                static_cast<unsigned long long>(r.config.seed),
                static_cast<unsigned long long>(r.config.seed));
  out += format("  measured    %.1f s%s\n", r.measured_seconds,
                r.interrupted ? " (interrupted: the interval was cut short)" : "");
  if (!r.drained) out += "  drain       transactions still in flight at the end were abandoned\n";
  out += in_flight_line(r);
  const double chance = expected_longest_gap_seconds(r);
  if ((r.results.longest_stall_seconds >= stall_worth_a_line_seconds &&
       (chance <= 0 || r.results.longest_stall_seconds > chance)) ||
      !r.drained) {
    out +=
        format("  stall       no transaction completed for %.1f s (from %.1f s into the window)\n",
               r.results.longest_stall_seconds, r.results.stall_began_seconds);
  }
  if (!r.fatal.empty()) out += "  STOPPED BY AN ERROR: " + r.fatal + "\n";
  return out;
}

// One line per type with failures: their count by SQLSTATE class and their latency.
std::string failures(const stats::snapshot& s) {
  std::string out;
  for (const txn::kind k : txn::all_kinds) {
    const stats::kind_totals& t = s.kinds[txn::index(k)];
    if (t.outcomes.failures() == 0) continue;
    out += format("  FAILURES    %-13s %llu of %llu:", std::string(txn::name(k)).c_str(),
                  static_cast<unsigned long long>(t.outcomes.failures()),
                  static_cast<unsigned long long>(t.outcomes.total()));
    for (const auto& [cls, n] : t.error_classes) {
      out += format(" SQLSTATE class %s x %llu,", cls.c_str(), static_cast<unsigned long long>(n));
    }
    out += format(" p90 until known %s ms\n", percentile_ms(t.failed_response, 0.9).c_str());
  }
  return out;
}

// A window with few New-Orders cannot pin tpmC down: its 95 % interval (as if the count were
// Poisson, which over-states it a little: the deck and the waits make arrivals more regular),
// said when wider than +-5 %. See docs/tpcc/results.md, "Short runs".
std::string precision_line(const run::run_result& r) {
  const std::uint64_t n = completed_new_orders(r.results);
  if (n == 0) return {};
  const double half_width = 1.96 / std::sqrt(static_cast<double>(n));
  if (half_width <= 0.05) return {};
  return format(
      "  precision   +-%.0f %% (95 %%, from %llu New-Orders): too short a window to judge tpmC "
      "or efficiency; its mix shares also carry the terminals' start (docs/tpcc/results.md)\n",
      half_width * 100.0, static_cast<unsigned long long>(n));
}

std::string headline(const run::run_result& r) {
  if (r.measured_seconds <= 0) {
    return "\n  nothing measured: the run ended before its measurement interval began\n";
  }
  const auto& no = r.results.kinds[txn::index(txn::kind::new_order)];
  std::string out = format(
      "\n  tpmC        %.2f  (%llu New-Orders completed in %.1f s: %llu committed, %llu rolled "
      "back by the spec; clause 5.4.2)\n",
      tpmc(r), static_cast<unsigned long long>(completed_new_orders(r.results)), r.measured_seconds,
      static_cast<unsigned long long>(no.outcomes.committed()),
      static_cast<unsigned long long>(no.outcomes[stats::txn_outcome::rolled_back]));
  out += format(
      "  tpmTotal    %.2f  (%llu transactions of every type completed; a Delivery when queued)\n",
      tpm_total(r), static_cast<unsigned long long>(completed_transactions(r.results)));
  if (r.paced()) {
    out += "  efficiency  n/a: --rate sets the load, not the terminals' waits\n";
  } else if (r.wait_scale == 0.0) {
    out += "  efficiency  n/a: without waits there is no maximum to compare with\n";
  } else if (r.wait_scale != 1.0) {
    out += format(
        "  efficiency  %.1f %%  of the scaled maximum (tpmC / (12.86 / %g x %lld "
        "warehouse%s)), not a TPC-C figure\n",
        efficiency(r) * 100.0, r.wait_scale, static_cast<long long>(warehouses_run(r)),
        warehouses_run(r) == 1 ? "" : "s");
  } else {
    out += format("  efficiency  %.1f %%  (tpmC / (12.86 x %lld warehouse%s))\n",
                  efficiency(r) * 100.0, static_cast<long long>(warehouses_run(r)),
                  warehouses_run(r) == 1 ? "" : "s");
  }
  return out + rate_summary_lines(r) + precision_line(r);
}

// An outcome's column: as wide as its label, at least 6.
int column_width(const stats::outcome_info& i) {
  return static_cast<int>(std::max<std::size_t>(i.label.size(), 6));
}

std::string table_row(txn::kind k, const stats::kind_totals& t) {
  std::string out = format("  %-13s", std::string(txn::name(k)).c_str());
  for (const stats::outcome_info& i : stats::outcome_table) {
    out +=
        format(" %*llu", column_width(i), static_cast<unsigned long long>(t.outcomes[i.outcome]));
  }
  out += format(" %7llu %7s %7s %7s %9.2f\n", static_cast<unsigned long long>(t.retries),
                percentile_ms(t.response, 0.5).c_str(), percentile_ms(t.response, 0.9).c_str(),
                percentile_ms(t.response, 0.99).c_str(), round_trips_per_transaction(t));
  return out;
}

std::string table(const run::run_result& r) {
  std::string out = format("\n  %-13s", "transaction");
  for (const stats::outcome_info& i : stats::outcome_table) {
    out += format(" %*s", column_width(i), std::string(i.label).c_str());
  }
  out += format(" %7s %7s %7s %7s %9s\n", "retries", "p50 ms", "p90 ms", "p99 ms", "trips/txn");
  for (const txn::kind k : txn::all_kinds) out += table_row(k, r.results.kinds[txn::index(k)]);
  out +=
      "  (percentiles: completed transactions only; Delivery: the terminal's response, i.e.\n"
      "   queueing the deferred Delivery)\n";
  return out + failures(r.results);
}

std::string client_cost(const run::run_result& r) {
  const stats::client_totals& c = r.client;
  std::string out = format(
      "  client      CPU %.1f s (%.1f s in the measurement interval), peak RSS before the "
      "reports %.1f MiB, "
      "%.0f bytes per terminal\n",
      c.cpu_seconds, c.measure_cpu_seconds, static_cast<double>(c.peak_rss_bytes) / 1048576.0,
      c.bytes_per_terminal);
  if (c.client_bound) {
    out.append("  CLIENT-BOUND: ").append(c.client_bound_reason).append("\n");
  } else {
    out += "              not client-bound (timer lateness and queueing within the limit)\n";
  }
  return out;
}

std::string deliveries(const run::run_result& r) {
  return "\n  deferred Delivery: " + deferred_delivery_figures(r.results) + "\n";
}

std::string constants(const run::run_result& r) {
  const auto delta = std::llabs(r.run_constants.c_last - r.load_constants.c_last);
  return format(
      "  NURand C    load: C_LAST %lld, C_ID %lld, OL_I_ID %lld; run: C_LAST %lld (delta %lld), "
      "C_ID %lld, OL_I_ID %lld\n",
      static_cast<long long>(r.load_constants.c_last),
      static_cast<long long>(r.load_constants.c_id),
      static_cast<long long>(r.load_constants.ol_i_id),
      static_cast<long long>(r.run_constants.c_last), static_cast<long long>(delta),
      static_cast<long long>(r.run_constants.c_id),
      static_cast<long long>(r.run_constants.ol_i_id));
}

}  // namespace

const char* isolation_name(driver::isolation level) noexcept {
  switch (level) {
    case driver::isolation::repeatable_read:
      return "repeatable-read";
    case driver::isolation::serializable:
      return "serializable";
    case driver::isolation::read_committed:
      break;
  }
  return "read-committed";
}

std::string isolation_text(const run::run_result& r, std::string_view target) {
  std::string out = isolation_name(r.config.isolation);
  if (driver::engine_of(target) == driver::engine::sqlite)
    out += " asked; SQLite runs every transaction serializable";
  return out;
}

double round_trips_per_transaction(const stats::kind_totals& t) {
  const std::uint64_t n = t.outcomes.total();
  return n == 0 ? 0.0 : static_cast<double>(t.round_trips) / static_cast<double>(n);
}

std::uint64_t completed_new_orders(const stats::snapshot& s) {
  // Clause 5.4.2: completed New-Orders, the spec's rolled-back 1 % included (clause 2.4.2.3).
  return s.kinds[txn::index(txn::kind::new_order)].outcomes.completed();
}

double tpmc(const run::run_result& r) {
  if (r.measured_seconds <= 0) return 0;
  return static_cast<double>(completed_new_orders(r.results)) * 60.0 / r.measured_seconds;
}

std::uint64_t completed_transactions(const stats::snapshot& s) {
  std::uint64_t n = 0;
  for (const stats::kind_totals& t : s.kinds) n += t.outcomes.completed();
  return n;
}

double tpm_total(const run::run_result& r) {
  if (r.measured_seconds <= 0) return 0;
  return static_cast<double>(completed_transactions(r.results)) * 60.0 / r.measured_seconds;
}

std::int64_t warehouses_run(const run::run_result& r) {
  return r.last_warehouse >= r.first_warehouse ? r.last_warehouse - r.first_warehouse + 1
                                               : r.warehouses;
}

double efficiency(const run::run_result& r) {
  const std::int64_t w = warehouses_run(r);
  if (w <= 0 || r.wait_scale <= 0 || r.paced()) return 0;
  const double per_warehouse = max_tpmc_per_warehouse / r.wait_scale;
  return tpmc(r) / (per_warehouse * static_cast<double>(w));
}

// Over the deliveries queued in the window, as the verdict judges them (a failed or abandoned
// one is not on time).
std::string deferred_delivery_figures(const stats::snapshot& s) {
  const std::uint64_t queued = s.deliveries_done + s.deliveries_failed;
  const double on_time =
      queued == 0 ? 0.0
                  : 100.0 * static_cast<double>(s.deliveries_on_time) / static_cast<double>(queued);
  return format(
      "%llu queued in the window: %.1f %% completed within %g s (%llu completed, %llu failed or "
      "abandoned, %llu of them lost), %llu districts skipped, completion p90 %s ms",
      static_cast<unsigned long long>(queued), on_time, txn::deferred_delivery_limit_seconds,
      static_cast<unsigned long long>(s.deliveries_done),
      static_cast<unsigned long long>(s.deliveries_failed),
      static_cast<unsigned long long>(s.deliveries_lost),
      static_cast<unsigned long long>(s.skipped_districts),
      percentile_ms(s.delivery_completion, 0.9).c_str());
}

std::string format_summary(const run::run_result& r, const std::string& target) {
  return header(r, target) + headline(r) + table(r) + ch_summary_text(r) + endpoints_text(r) +
         steps_summary_lines(r) + deliveries(r) + constants(r) + client_cost(r) +
         format_verdict(evaluate(r, target));
}

double expected_longest_gap_seconds(const run::run_result& r) {
  const std::uint64_t n = completed_transactions(r.results);
  if (n == 0 || r.measured_seconds <= 0) return 0.0;
  const auto completions = static_cast<double>(n);
  return (std::log(completions + 1) + 3) * r.measured_seconds / completions;
}

}  // namespace tpcc::report
