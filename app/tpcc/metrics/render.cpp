// SPDX-License-Identifier: Apache-2.0
// app/tpcc/metrics/render.cpp: the exposition text of a run (see render.hpp).
#include "metrics/render.hpp"

#include <cstddef>
#include <string_view>

#include "metrics/ch_render.hpp"
#include "metrics/endpoint_render.hpp"
#include "metrics/exposition.hpp"
#include "metrics/histogram_samples.hpp"
#include "metrics/server_render.hpp"
#include "stats/outcomes.hpp"
#include "txn/kind.hpp"

namespace tpcc::metrics {
namespace {

using kinds_totals = std::array<stats::kind_totals, txn::kind_count>;

constexpr std::array<stats::phase, 5> phases{stats::phase::starting, stats::phase::warmup,
                                             stats::phase::measuring, stats::phase::draining,
                                             stats::phase::done};

double seconds_of_us(std::uint64_t us) { return static_cast<double>(us) / 1e6; }

void phase_gauge(exposition& e, stats::phase now) {
  e.family("shoal_tpcc_phase", metric_type::gauge,
           "The run's phase: 1 for the current one, 0 for the others");
  for (const stats::phase p : phases) {
    e.sample("shoal_tpcc_phase", {{"phase", stats::to_string(p)}}, p == now ? 1 : 0);
  }
}

void outcome_counter(exposition& e, std::string_view name, std::string_view help,
                     const kinds_totals& kinds) {
  e.family(name, metric_type::counter, help);
  for (const txn::kind k : txn::all_kinds) {
    const stats::outcome_counts& counts = kinds[txn::index(k)].outcomes;
    for (const stats::outcome_info& o : stats::outcome_table) {
      e.sample(name, {{"type", txn::name(k)}, {"outcome", o.key}},
               static_cast<double>(counts[o.outcome]));
    }
  }
}

void retries_counter(exposition& e, const kinds_totals& kinds) {
  constexpr std::string_view name = "shoal_tpcc_retries_total";
  e.family(name, metric_type::counter,
           "Retries (serialization failures, deadlocks) since the terminals started, by type");
  for (const txn::kind k : txn::all_kinds) {
    e.sample(name, {{"type", txn::name(k)}}, static_cast<double>(kinds[txn::index(k)].retries));
  }
}

void response_histogram(exposition& e, const kinds_totals& kinds) {
  constexpr std::string_view name = "shoal_tpcc_response_time_seconds";
  e.family(name, metric_type::histogram,
           "Response time of completed transactions since the terminals started (clause "
           "5.5.1), by type");
  for (const txn::kind k : txn::all_kinds) {
    histogram_samples(e, name, {"type", txn::name(k)}, kinds[txn::index(k)].response);
  }
}

void gauge(exposition& e, std::string_view name, std::string_view help, double value) {
  e.family(name, metric_type::gauge, help);
  e.sample(name, value);
}

void run_gauges(exposition& e, const figures::run_screen& s) {
  const figures::run_figures f = figures::figures_of(s);
  gauge(e, "shoal_tpcc_elapsed_seconds", "Seconds since the terminals started",
        s.view.elapsed_seconds);
  gauge(e, "shoal_tpcc_measured_seconds", "Seconds of the measurement interval so far",
        f.measured_seconds);
  gauge(e, "shoal_tpcc_tpmc",
        "tpmC so far: completed New-Orders per minute of the measurement interval", f.tpmc);
  // Not ..._tpm_total: a gauge's name must not end in _total (promtool).
  gauge(e, "shoal_tpcc_tpmtotal",
        "tpmTotal so far: completed transactions of every type per minute of the measurement "
        "interval",
        f.tpm_total);
  if (f.efficiency) {
    gauge(e, "shoal_tpcc_efficiency_ratio",
          "tpmC as a fraction of the maximum the warehouses allow (12.86 per warehouse, "
          "scaled by --wait-scale)",
          *f.efficiency);
  }
  gauge(e, "shoal_tpcc_warehouses", "Warehouses this process drives",
        static_cast<double>(s.view.warehouses));
  gauge(e, "shoal_tpcc_terminals", "Terminals this process runs",
        static_cast<double>(s.view.terminals));
  gauge(e, "shoal_tpcc_client_bound",
        "1 when the latest interval's client lag or worker load marks the client as the "
        "bottleneck",
        f.client.bound ? 1 : 0);
}

void worker_gauge(exposition& e, const stats::client_sample& c) {
  constexpr std::string_view name = "shoal_tpcc_worker_busy_ratio";
  e.family(name, metric_type::gauge,
           "Fraction of the latest interval each worker thread spent on the CPU");
  for (std::size_t k = 0; k < c.workers.size(); ++k) {
    e.sample(name, {{"worker", std::to_string(k)}}, c.workers[k].busy);
  }
}

void client_gauges(exposition& e, const stats::interval_sample& last) {
  const stats::client_sample& c = last.client;
  gauge(e, "shoal_tpcc_client_timer_lateness_p99_seconds",
        "Probe timer lateness p99 over the latest interval (how late a sleep woke)",
        seconds_of_us(c.lateness_p99_us));
  gauge(e, "shoal_tpcc_client_ready_queue_delay_p99_seconds",
        "Ready-queue delay p99 over the latest interval (how long ready work waited to run)",
        seconds_of_us(c.queue_delay_p99_us));
  worker_gauge(e, c);
  const double length = last.end_seconds - last.start_seconds;
  gauge(e, "shoal_tpcc_client_cpu_seconds_per_second",
        "Process CPU seconds (user + system) per second over the latest interval",
        length > 0 ? c.cpu_seconds / length : 0);
  gauge(e, "shoal_tpcc_client_resident_memory_bytes", "Resident set size of the client",
        static_cast<double>(c.rss_bytes));
  gauge(e, "shoal_tpcc_deliveries_queued", "Deferred Deliveries waiting for a deliverer",
        static_cast<double>(c.deliveries_queued));
  gauge(e, "shoal_tpcc_sessions", "Database sessions in the pool",
        static_cast<double>(c.pool_size));
  gauge(e, "shoal_tpcc_sessions_in_use", "Database sessions lent to a transaction",
        static_cast<double>(c.pool_in_use));
  gauge(e, "shoal_tpcc_session_waiters", "Transactions waiting for a database session",
        static_cast<double>(c.pool_waiting));
}

}  // namespace

std::string render(const run_view& view) {
  exposition e;
  phase_gauge(e, view.now);
  if (view.totals) {
    outcome_counter(e, "shoal_tpcc_transactions_total",
                    "Transactions ended since the terminals started (every phase), by type "
                    "and outcome",
                    view.totals->kinds);
    retries_counter(e, view.totals->kinds);
    response_histogram(e, view.totals->kinds);
  }
  if (view.screen) {
    outcome_counter(e, "shoal_tpcc_measured_transactions_total",
                    "Transactions ended inside the measurement interval (what the result "
                    "counts), by type and outcome",
                    view.screen->view.window.kinds);
    run_gauges(e, *view.screen);
    if (view.screen->view.last) client_gauges(e, *view.screen->view.last);
    if (view.ch) render_ch(e, *view.ch, figures::figures_of(*view.screen).measured_seconds);
  }
  render_servers(e, view.servers);
  render_endpoints(e, view.endpoints);
  return e.text();
}

}  // namespace tpcc::metrics
