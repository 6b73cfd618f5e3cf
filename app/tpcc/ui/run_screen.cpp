// SPDX-License-Identifier: Apache-2.0
// app/tpcc/ui/run_screen.cpp: the run's dashboard laid out as text (see run_screen.hpp).
#include "ui/run_screen.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#include "run_result/steps.hpp"
#include "txn/kind.hpp"

namespace tpcc::ui {
namespace {

template <class... Args>
std::string format(const char* fmt, Args... args) {
  std::array<char, 512> buffer{};
  const int n = std::snprintf(buffer.data(), buffer.size(), fmt, args...);
  return std::string(buffer.data(),
                     n < 0 ? 0 : std::min(static_cast<std::size_t>(n), buffer.size() - 1));
}

std::string upper(std::string s) {
  for (char& c : s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return s;
}

// --schedule: the step running now (from the time measured so far: the warm-up runs at the
// first step's rate) and its offered rate, not the schedule's mean.
std::string mode(const run_screen& s) {
  if (!s.schedule.empty()) {
    const run::live_view& v = s.view;
    const std::size_t i = run::step_at(s.schedule, v.elapsed_seconds - v.warmup_seconds);
    return format("step %zu/%zu rate %.0f tpm (NOT TPC-C)", i + 1, s.schedule.size(),
                  s.schedule[i].rate_tpm);
  }
  if (s.rate_tpm > 0) return format("rate %.0f tpm (NOT TPC-C)", s.rate_tpm);
  if (s.wait_scale == 1.0) return "TPC-C waits";
  if (s.wait_scale == 0.0) return "no waits (NOT TPC-C)";
  return "waits x" + format("%g", s.wait_scale) + " (NOT TPC-C)";
}

std::string header(const run_screen& s) {
  const run::live_view& v = s.view;
  std::string line =
      format("shoal-tpcc run  %s  %lld warehouse%s, %lld terminals  %s", s.target.c_str(),
             static_cast<long long>(v.warehouses), v.warehouses == 1 ? "" : "s",
             static_cast<long long>(v.terminals), mode(s).c_str());
  if (!s.note.empty()) line.append("  ").append(s.note);
  return line;
}

std::string timing(const run_screen& s, const run_figures& f) {
  const run::live_view& v = s.view;
  std::string line = upper(run::to_string(v.now));
  line.append("  elapsed ").append(clock_time(v.elapsed_seconds));
  line.append("  remaining ").append(clock_time(f.remaining_seconds));
  line.append("  (warm-up ").append(clock_time(v.warmup_seconds));
  line.append(", measurement ").append(clock_time(v.measure_seconds)).append(")");
  if (v.now == run::phase::draining) line += "  finishing transactions in flight";
  return line;
}

std::string bar(const run_figures& f, std::size_t columns) {
  const std::size_t width = std::clamp<std::size_t>(columns, 20, 200) - 5;
  return progress_bar(f.progress, width) + pad_left(fixed(f.progress * 100, 0), 4) + "%";
}

std::string headline(const run_figures& f) {
  std::string line = "tpmC " + fixed(f.tpmc, 1) + "   tpmTotal " + fixed(f.tpm_total, 1);
  line += "   efficiency ";
  line += f.efficiency ? fixed(*f.efficiency * 100, 1) + " %" : std::string("n/a (no waits)");
  line += "   measured " + fixed(f.measured_seconds, 1) + " s";
  return line;
}

// A percentile of `h` in milliseconds, "-" when it has no sample.
std::string percentile_ms(const stats::histogram& h, double fraction) {
  return h.count() == 0 ? std::string("-") : millis(h.percentile(fraction));
}

std::string count_text(std::uint64_t n) { return std::to_string(n); }

// " | failed N (lost M, retries R)" when any transaction of the window failed, else empty.
std::string failures_text(const stats::snapshot& window) {
  std::uint64_t failed = 0, lost = 0, retries = 0;
  for (const stats::kind_totals& t : window.kinds) {
    failed += t.outcomes.failures();
    lost += t.outcomes[stats::txn_outcome::lost];
    retries += t.retries;
  }
  if (failed == 0) return {};
  return " | FAILED " + count_text(failed) + " (lost " + count_text(lost) + ", retries " +
         count_text(retries) + ")";
}

// Completed (committed or the spec's rollback), retries, failures other than lost, lost, and
// the completed transactions' percentiles: 78 columns.
void add_table(std::vector<std::string>& lines, const run::live_view& v) {
  lines.push_back(format("  %-13s %9s %7s %6s %5s %7s %7s %7s %7s", "transaction", "completed",
                         "retries", "errors", "lost", "p50 ms", "p90 ms", "p99 ms", "txn/s"));
  for (const txn::kind k : txn::all_kinds) {
    const stats::kind_totals& t = v.window.kinds[txn::index(k)];
    const stats::outcome_counts& o = t.outcomes;
    const std::string rate = v.last ? fixed(interval_rate(*v.last, txn::index(k)), 1) : "-";
    const std::uint64_t lost = o[stats::txn_outcome::lost];
    lines.push_back(format("  %-13s %9s %7s %6s %5s %7s %7s %7s %7s",
                           std::string(txn::name(k)).c_str(), count_text(o.completed()).c_str(),
                           count_text(t.retries).c_str(), count_text(o.failures() - lost).c_str(),
                           count_text(lost).c_str(), percentile_ms(t.response, 0.5).c_str(),
                           percentile_ms(t.response, 0.9).c_str(),
                           percentile_ms(t.response, 0.99).c_str(), rate.c_str()));
  }
}

// "w0 12% 1.2k/s" cells packed into lines of `columns`, at most 4 lines.
void add_workers(std::vector<std::string>& lines, const stats::client_sample& c,
                 std::size_t columns) {
  constexpr std::size_t max_lines = 4;
  std::string line = "  ";
  std::size_t added = 0;
  for (std::size_t i = 0; i < c.workers.size(); ++i) {
    const stats::worker_sample& w = c.workers[i];
    const std::string cell = pad_right(
        format("w%zu %5.1f%% %s/s", i, w.busy * 100, short_number(w.resumed_per_second).c_str()),
        18);
    if (line.size() + cell.size() > columns && line.size() > 2) {
      if (++added == max_lines) {
        lines.push_back(format("  ... %zu more workers", c.workers.size() - i));
        return;
      }
      lines.push_back(line);
      line = "  ";
    }
    line += cell;
  }
  if (line.size() > 2) lines.push_back(line);
}

void add_client(std::vector<std::string>& lines, const run_screen& s, const run_figures& f,
                std::size_t columns) {
  if (!s.view.last) {
    lines.emplace_back("client  (its figures appear after the first complete interval)");
    return;
  }
  const stats::interval_sample& last = *s.view.last;
  const stats::client_sample& c = last.client;
  const double seconds = std::max(last.end_seconds - last.start_seconds, 1e-9);
  lines.push_back(
      format("client  %zu workers (busy, coroutines resumed/s)  cpu %.3f s/s  rss %s MiB",
             c.workers.size(), c.cpu_seconds / seconds,
             fixed(static_cast<double>(c.rss_bytes) / 1048576.0, 1).c_str()));
  add_workers(lines, c, columns);
  lines.push_back(
      format("pool    size %zu  in use %zu  waiting %zu  wait p90 %s ms  deliveries "
             "queued %zu",
             c.pool_size, c.pool_in_use, c.pool_waiting,
             f.pool_wait_p90_us ? millis(*f.pool_wait_p90_us).c_str() : "-", c.deliveries_queued));
  lines.push_back(
      format("lag     timer lateness p99 %s ms  ready-queue delay p99 %s ms  (limit %s ms)",
             millis(c.lateness_p99_us).c_str(), millis(c.queue_delay_p99_us).c_str(),
             millis(static_cast<std::uint64_t>(s.client_lag_limit.count() / 1000)).c_str()));
  if (f.client.bound) {
    lines.push_back("!! CLIENT-BOUND: " + f.client.reason +
                    ": these figures measure the client, not the database");
  }
}

// The analytic streams' line: their queries so far and the queries per hour of the
// measurement interval so far (as the result computes them); nothing without streams.
std::string ch_live_text(const run_screen& s, const run_figures& f, const char* label) {
  if (!s.ch) return {};
  const double per_hour = f.measured_seconds > 0
                              ? static_cast<double>(s.ch->completed) * 3600 / f.measured_seconds
                              : 0.0;
  return format(
      "%s%lld stream%s  queries completed %llu  failed %llu  cancelled %llu  QphH so far %s", label,
      static_cast<long long>(s.ch->streams), s.ch->streams == 1 ? "" : "s",
      static_cast<unsigned long long>(s.ch->completed),
      static_cast<unsigned long long>(s.ch->failed),
      static_cast<unsigned long long>(s.ch->cancelled), fixed(per_hour, 1).c_str());
}

}  // namespace

void add_log_pane(std::vector<std::string>& lines, screen_size size,
                  const std::vector<std::string>& log) {
  if (lines.size() + 2 < size.rows) {
    lines.emplace_back();
    lines.emplace_back("log (stderr) " +
                       std::string(size.columns > 13 ? size.columns - 13 : 0, '-'));
    const std::size_t room = size.rows - lines.size();
    const std::size_t shown = std::min(room, log.size());
    for (std::size_t i = log.size() - shown; i < log.size(); ++i)
      lines.push_back(printable(log[i]));
  }
  if (lines.size() > size.rows) lines.resize(size.rows);
  for (std::string& line : lines) line = fit(line, size.columns);
}

std::vector<std::string> render_run(const run_screen& s, screen_size size,
                                    const std::vector<std::string>& log) {
  const run_figures f = figures_of(s);
  std::vector<std::string> lines;
  lines.push_back(printable(header(s)));
  lines.push_back(timing(s, f));
  lines.push_back(bar(f, size.columns));
  lines.push_back(headline(f));
  if (s.ch) lines.push_back(ch_live_text(s, f, "CH      "));
  lines.emplace_back();
  add_table(lines, s.view);
  lines.emplace_back();
  add_client(lines, s, f, size.columns);
  add_log_pane(lines, size, log);
  return lines;
}

std::vector<std::string> render_starting(const std::string& target, screen_size size,
                                         const std::vector<std::string>& log) {
  std::vector<std::string> lines;
  lines.push_back(printable("shoal-tpcc run  " + target));
  lines.emplace_back("STARTING  checking the load, connecting, starting the terminals");
  add_log_pane(lines, size, log);
  return lines;
}

std::string run_line(const run_screen& s) {
  const run_figures f = figures_of(s);
  const run::live_view& v = s.view;
  std::string line = std::string("[") + run::to_string(v.now) + "] " + fixed(v.elapsed_seconds, 0) +
                     "/" + fixed(f.planned_seconds, 0) + " s";
  line += " | tpmC " + fixed(f.tpmc, 1) + " | tpmTotal " + fixed(f.tpm_total, 1);
  if (f.efficiency) line += " | efficiency " + fixed(*f.efficiency * 100, 1) + "%";
  const auto& no = v.window.kinds[txn::index(txn::kind::new_order)];
  line += " | New-Order p90 " + percentile_ms(no.response, 0.9) + " ms";
  if (f.pool_wait_p90_us) line += " | pool wait p90 " + millis(*f.pool_wait_p90_us) + " ms";
  line += failures_text(v.window);
  if (f.client.bound) line += " | CLIENT-BOUND: " + f.client.reason;
  if (s.ch) line += " | " + ch_live_text(s, f, "CH ");
  if (!s.note.empty()) line += " | " + s.note;
  return line;
}

}  // namespace tpcc::ui
