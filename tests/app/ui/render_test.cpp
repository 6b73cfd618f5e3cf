// SPDX-License-Identifier: Apache-2.0
// tests/app/ui/render_test.cpp: the dashboards as pure functions: given a snapshot, what the
// lines say, and that they fit the terminal.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "txn/kind.hpp"
#include "ui/load_screen.hpp"
#include "ui/run_screen.hpp"

namespace tpcc::ui {
namespace {

using namespace std::chrono_literals;

bool has(const std::vector<std::string>& lines, const std::string& text) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& l) { return l.find(text) != std::string::npos; });
}

std::string line_with(const std::vector<std::string>& lines, const std::string& text) {
  for (const auto& l : lines) {
    if (l.find(text) != std::string::npos) return l;
  }
  return {};
}

// 1 warehouse at waits x0.01, 7 s into a 2 s warm-up + 10 s measurement: 5 s measured.
run_screen measuring() {
  run_screen s;
  s.target = "sqlite:/tmp/x.db";
  s.wait_scale = 0.01;
  s.view.now = run::phase::measuring;
  s.view.elapsed_seconds = 7;
  s.view.warmup_seconds = 2;
  s.view.measure_seconds = 10;
  s.view.warehouses = 1;
  s.view.terminals = 10;
  s.view.window.window_start = stats::clock::time_point(100s);
  s.view.window.window_end = stats::clock::time_point(110s);
  auto& no = s.view.window.kinds[txn::index(txn::kind::new_order)];
  // 100 completed in 5 s: tpmC 1200 (the spec's rollback counts as completed, clause 5.4.2)
  no.outcomes[tpcc::stats::txn_outcome::committed] = 99;
  no.outcomes[tpcc::stats::txn_outcome::rolled_back] = 1;
  no.outcomes[tpcc::stats::txn_outcome::lost] = 3;
  no.outcomes[tpcc::stats::txn_outcome::failed] = 2;
  no.response.record(2000, 50);   // 2 ms
  no.response.record(30000, 50);  // 30 ms
  s.view.window.kinds[txn::index(txn::kind::stock_level)]
      .outcomes[tpcc::stats::txn_outcome::committed] = 7;
  return s;
}

stats::interval_sample interval(std::size_t workers, double busy) {
  stats::interval_sample i;
  i.start_seconds = 6;
  i.end_seconds = 7;
  i.in = run::phase::measuring;
  i.kinds[txn::index(txn::kind::payment)].outcomes[tpcc::stats::txn_outcome::committed] = 42;
  stats::histogram queued;
  queued.record(500, 100);  // 0.5 ms
  i.kinds[txn::index(txn::kind::payment)].queued = stats::sparse_histogram::of(queued);
  for (std::size_t w = 0; w < workers; ++w) i.client.workers.push_back({busy, 1234, 10, 20});
  i.client.pool_size = 16;
  i.client.pool_in_use = 9;
  i.client.pool_waiting = 3;
  i.client.deliveries_queued = 4;
  i.client.lateness_p99_us = 1500;
  i.client.queue_delay_p99_us = 700;
  i.client.cpu_seconds = 0.25;
  i.client.rss_bytes = 24u << 20;
  return i;
}

TEST(run_screen, ShowsThePhaseTpmcEfficiencyAndProgress) {
  const auto lines = render_run(measuring(), {120, 40}, {});
  EXPECT_TRUE(has(lines, "MEASURING")) << lines[1];
  EXPECT_TRUE(has(lines, "elapsed 0:07"));
  EXPECT_TRUE(has(lines, "remaining 0:05"));
  EXPECT_TRUE(has(lines, "tpmC 1200.0"));
  EXPECT_TRUE(has(lines, "tpmTotal 1284.0"));    // and 7 Stock-Levels: 107 in 5 s
  EXPECT_TRUE(has(lines, "efficiency 93.3 %"));  // 1200 / (12.86 / 0.01 x 1)
  EXPECT_TRUE(has(lines, "[#"));
  EXPECT_TRUE(has(lines, " 58%"));  // 7 of 12 s
  EXPECT_TRUE(has(lines, "waits x0.01 (NOT TPC-C)"));
  EXPECT_TRUE(has(lines, "sqlite:/tmp/x.db"));
}

// --schedule: the header names the step running now and its rate, not the schedule's mean:
// 5 s measured of steps of 4 s and 4 s is the second; the warm-up runs at the first's rate.
TEST(run_screen, AScheduleShowsTheCurrentStepAndItsRate) {
  run_screen s = measuring();
  s.rate_tpm = 1500;  // the mean
  s.schedule = {{1000, 4s}, {2000, 4s}, {3000, 4s}};
  EXPECT_TRUE(has(render_run(s, {120, 40}, {}), "step 2/3 rate 2000 tpm (NOT TPC-C)"));
  s.view.now = run::phase::warmup;
  s.view.elapsed_seconds = 1;
  EXPECT_TRUE(has(render_run(s, {120, 40}, {}), "step 1/3 rate 1000 tpm"));
  s.view.elapsed_seconds = 40;  // past the end: the last
  EXPECT_TRUE(has(render_run(s, {120, 40}, {}), "step 3/3 rate 3000 tpm"));
}

// CH-benCHmark's streams while they run: a line of their queries and the queries per hour so
// far (12 completed in the 5 s measured: 8640 an hour), on the dashboard and the plain line;
// none without streams.
TEST(run_screen, AnalyticStreamsShowTheirQueriesAndQueriesPerHourSoFar) {
  run_screen s = measuring();
  EXPECT_FALSE(has(render_run(s, {120, 40}, {}), "QphH so far"));
  EXPECT_EQ(run_line(s).find("QphH"), std::string::npos);
  s.ch = tpcc::figures::ch_live{2, 12, 1, 0};
  EXPECT_TRUE(has(render_run(s, {120, 40}, {}),
                  "CH      2 streams  queries completed 12  failed 1  cancelled 0  "
                  "QphH so far 8640.0"));
  EXPECT_NE(run_line(s).find("| CH 2 streams  queries completed 12  failed 1"), std::string::npos)
      << run_line(s);
}

TEST(run_screen, TableHasEveryTypeWithCountsAndPercentiles) {
  const auto lines = render_run(measuring(), {120, 40}, {});
  EXPECT_TRUE(has(lines, "p50 ms"));
  for (const txn::kind k : txn::all_kinds) EXPECT_TRUE(has(lines, std::string(txn::name(k))));
  const std::string no = line_with(lines, "New-Order");
  EXPECT_NE(no.find(" 100 "), std::string::npos) << no;  // completed: 99 committed, 1 rollback
  EXPECT_NE(no.find(" 2.0 "), std::string::npos) << no;  // p50: the bucket holding 2 ms
  EXPECT_NE(no.find("30."), std::string::npos) << no;    // p90 and p99 in the 30 ms bucket
  EXPECT_NE(line_with(lines, "Stock-Level").find(" 7 "), std::string::npos);
  EXPECT_EQ(no.back(), '-');  // no interval yet: no rate
}

TEST(run_screen, TableCountsErrorsAndLostApartFromCompleted) {
  const auto lines = render_run(measuring(), {120, 40}, {});
  EXPECT_TRUE(has(lines, "completed retries errors  lost"));
  const std::string no = line_with(lines, "New-Order");
  EXPECT_NE(no.find("       100       0      2     3 "), std::string::npos) << no;
  // A type with nothing completed shows no percentile, never 0.0 ms.
  const std::string pay = line_with(lines, "Payment");
  EXPECT_NE(pay.find("       -       -       -"), std::string::npos) << pay;
}

TEST(run_screen, ShowsWorkersPoolAndLagOfTheLatestInterval) {
  run_screen s = measuring();
  s.view.last = interval(2, 0.25);
  const auto lines = render_run(s, {120, 40}, {});
  EXPECT_TRUE(has(lines, "2 workers"));
  EXPECT_TRUE(has(lines, "w0  25.0% 1.2k/s"));
  EXPECT_TRUE(has(lines, "w1  25.0% 1.2k/s"));
  EXPECT_TRUE(has(lines, "size 16  in use 9  waiting 3  wait p90 0.5 ms  deliveries queued 4"));
  EXPECT_TRUE(has(lines, "timer lateness p99 1.5 ms"));
  EXPECT_TRUE(has(lines, "ready-queue delay p99 0.7 ms"));
  EXPECT_TRUE(has(lines, "rss 24.0 MiB"));
  EXPECT_NE(line_with(lines, "Payment").find("42.0"), std::string::npos);  // txn/s
  EXPECT_FALSE(has(lines, "CLIENT-BOUND"));
}

TEST(run_screen, WarnsWhenLatenessExceedsTheClientLagLimit) {
  run_screen s = measuring();
  s.view.last = interval(2, 0.25);
  s.view.last->client.lateness_p99_us = 80000;
  const auto lines = render_run(s, {120, 40}, {});
  EXPECT_TRUE(has(lines, "!! CLIENT-BOUND: timer lateness p99 80.0 ms > limit 50.0 ms"));
  EXPECT_NE(run_line(s).find("CLIENT-BOUND"), std::string::npos);
  s.client_lag_limit = 100ms;
  EXPECT_FALSE(has(render_run(s, {120, 40}, {}), "CLIENT-BOUND"));
}

TEST(run_screen, WarnsWhenQueueDelayOrBusyWorkersShowTheClientSaturated) {
  run_screen s = measuring();
  s.view.last = interval(2, 0.25);
  s.view.last->client.queue_delay_p99_us = 60000;
  EXPECT_TRUE(has(render_run(s, {120, 40}, {}), "CLIENT-BOUND: ready-queue delay"));
  s.view.last = interval(2, 0.97);
  EXPECT_TRUE(has(render_run(s, {120, 40}, {}), "CLIENT-BOUND: workers 97% busy"));
}

TEST(run_screen, WarmUpCountsDownAndDrainingHasNothingLeft) {
  run_screen s = measuring();
  s.view.now = run::phase::warmup;
  s.view.elapsed_seconds = 1;
  s.view.window.kinds = {};
  auto lines = render_run(s, {100, 30}, {});
  EXPECT_TRUE(has(lines, "WARM-UP"));
  EXPECT_TRUE(has(lines, "remaining 0:11"));
  EXPECT_TRUE(has(lines, "tpmC 0.0"));
  s = measuring();
  s.view.now = run::phase::draining;
  s.view.elapsed_seconds = 12.5;
  lines = render_run(s, {100, 30}, {});
  EXPECT_TRUE(has(lines, "DRAINING"));
  EXPECT_TRUE(has(lines, "remaining 0:00"));
  EXPECT_TRUE(has(lines, "100%"));
  EXPECT_TRUE(has(lines, "tpmC 600.0"));  // 100 completed in the whole 10 s window
}

TEST(run_screen, NoWaitsHasNoEfficiency) {
  run_screen s = measuring();
  s.wait_scale = 0;
  EXPECT_TRUE(has(render_run(s, {120, 40}, {}), "efficiency n/a"));
  EXPECT_EQ(run_line(s).find("efficiency"), std::string::npos);
}

void expect_fits(const std::vector<std::string>& lines, screen_size size) {
  EXPECT_LE(lines.size(), size.rows);
  for (const auto& l : lines) {
    EXPECT_LE(l.size(), size.columns) << l;
    EXPECT_TRUE(std::all_of(l.begin(), l.end(), [](char c) { return c >= ' ' && c <= '~'; })) << l;
  }
}

std::vector<std::string> noisy_log(std::size_t n) {
  std::vector<std::string> log;
  log.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    log.push_back("line " + std::to_string(i) + " \x1b[31mred\x1b[0m\t" + std::string(300, 'x'));
  }
  return log;
}

TEST(run_screen, FitsEightyAndTwoHundredColumns) {
  run_screen s = measuring();
  s.target = "postgresql://tpcc@" + std::string(250, 'h') + "/tpcc";
  s.view.last = interval(64, 0.5);
  for (const screen_size size : {screen_size{80, 24}, screen_size{200, 60}}) {
    const auto lines = render_run(s, size, noisy_log(100));
    expect_fits(lines, size);
    EXPECT_TRUE(has(lines, "New-Order"));
    EXPECT_TRUE(has(lines, "more workers"));
  }
  // The table is whole at 80 columns; the progress bar uses a wider terminal.
  EXPECT_TRUE(has(render_run(s, {80, 24}, {}), "p99 ms   txn/s"));
  const auto bar80 = line_with(render_run(s, {80, 24}, {}), "[#");
  const auto bar200 = line_with(render_run(s, {200, 60}, {}), "[#");
  EXPECT_EQ(bar80.size(), 80u);
  EXPECT_EQ(bar200.size(), 200u);
}

TEST(run_screen, LogPaneShowsTheLastLinesMadePrintable) {
  const auto lines = render_run(measuring(), {120, 40}, noisy_log(100));
  EXPECT_TRUE(has(lines, "log (stderr)"));
  EXPECT_TRUE(has(lines, "line 99 ?[31mred?[0m xxx"));
  EXPECT_FALSE(has(lines, "line 0 "));
  EXPECT_EQ(lines.size(), 40u);  // the pane fills the screen
}

TEST(run_screen, ShortTerminalKeepsTheTopAndDropsTheLog) {
  const auto lines = render_run(measuring(), {80, 12}, noisy_log(3));
  EXPECT_EQ(lines.size(), 12u);
  EXPECT_TRUE(has(lines, "tpmC"));
  EXPECT_FALSE(has(lines, "log (stderr)"));
}

TEST(run_screen, StartingScreenSaysWhatIsHappening) {
  const auto lines = render_starting("sqlite:a.db", {80, 24}, {"shoal-tpcc: hello"});
  EXPECT_TRUE(has(lines, "STARTING"));
  EXPECT_TRUE(has(lines, "shoal-tpcc: hello"));
}

TEST(run_line, IsOnePlainLineWithPhaseTpmcAndP90) {
  run_screen s = measuring();
  s.view.last = interval(1, 0.1);
  const std::string line = run_line(s);
  EXPECT_EQ(line.rfind("[measuring] 7/12 s | tpmC 1200.0 | tpmTotal 1284.0 | efficiency 93.3%", 0),
            0u)
      << line;
  EXPECT_NE(line.find("New-Order p90 30."), std::string::npos) << line;
  EXPECT_NE(line.find("pool wait p90 0.5 ms"), std::string::npos) << line;
  EXPECT_NE(line.find("| FAILED 5 (lost 3, retries 0)"), std::string::npos) << line;
  EXPECT_EQ(line.find('\x1b'), std::string::npos);
  EXPECT_EQ(line.find('\n'), std::string::npos);
}

TEST(run_line, CarriesTheNoteOnTheLineAndTheHeader) {
  run_screen s = measuring();
  s.note = "SIMULATED database";
  EXPECT_NE(run_line(s).find(" | SIMULATED database"), std::string::npos);
  EXPECT_NE(render_run(s, {120, 40}, {})[0].find("SIMULATED database"), std::string::npos);
}

loader::progress_snapshot half_loaded() {
  loader::progress_snapshot p;
  p.rows = 500'000;
  p.rows_expected = 1'000'000;
  p.bytes = 50 << 20;
  p.warehouses_done = 1;
  p.warehouses_total = 2;
  p.items_done = true;
  p.elapsed_seconds = 30;
  p.rows_per_second = 16'667;
  p.mib_per_second = 1.7;
  p.eta_seconds = 30;
  return p;
}

TEST(load_screen, ShowsRowsRatesEtaWarehousesAndABar) {
  const auto lines = render_load({half_loaded(), "sqlite:x.db"}, {100, 30}, {"a warning"});
  EXPECT_TRUE(has(lines, "LOADING  elapsed 0:30  ETA 0:30"));
  EXPECT_TRUE(has(lines, "[#"));
  EXPECT_TRUE(has(lines, " 50%"));
  EXPECT_TRUE(has(lines, "warehouses 1/2 done   items done"));
  EXPECT_TRUE(has(lines, "rows 500k of 1.0M   rows/s 17k   MiB/s 1.7"));
  EXPECT_TRUE(has(lines, "a warning"));
  expect_fits(lines, {100, 30});
  expect_fits(render_load({half_loaded(), std::string(300, 'd')}, {80, 24}, noisy_log(50)),
              {80, 24});
}

TEST(load_line, IsThePlainProgressLine) {
  EXPECT_EQ(load_line(half_loaded()),
            "load: 1/2 warehouses, 500000 rows (50%), 16667 rows/s, 1.7 MiB/s, ETA 30 s");
}

// half_loaded() with its tables: customer loading (half, 2.0 MiB/s, 15 s left), warehouse
// and item done, the others waiting.
loader::progress_snapshot half_loaded_by_table() {
  loader::progress_snapshot p = half_loaded();
  for (loader::table_progress& t : p.tables) t.rows_expected = 1000;
  loader::table_progress& customer = p.tables.at(loader::table_index("customer"));
  customer.state = loader::table_state::loading;
  customer.rows = 30'000;
  customer.rows_expected = 60'000;
  customer.mib_per_second = 2.0;
  customer.eta_seconds = 15;
  for (const char* name : {"warehouse", "item"}) {
    loader::table_progress& t = p.tables.at(loader::table_index(name));
    t.state = loader::table_state::done;
    t.rows = t.rows_expected;
    t.mib_per_second = 0.5;
    t.eta_seconds = 0;
  }
  return p;
}

TEST(load_screen, ShowsEveryTableWithRowsPercentRateAndEta) {
  const auto lines = render_load({half_loaded_by_table(), "sqlite:x.db"}, {100, 40}, {});
  EXPECT_TRUE(has(lines, "table      rows done / expected    %   MiB/s      ETA"));
  EXPECT_TRUE(has(lines, "customer         30k / 60k       50%     2.0     0:15"));
  EXPECT_TRUE(has(lines, "warehouse       1.0k / 1.0k     100%     0.5     done"));
  EXPECT_TRUE(has(lines, "stock              0 / 1.0k       0%       -        -"));
  for (const std::string_view table : loader::load_tables()) {
    EXPECT_TRUE(has(lines, std::string(table) + " ")) << table;
  }
  expect_fits(lines, {100, 40});
  expect_fits(render_load({half_loaded_by_table(), "sqlite:x.db"}, {80, 24}, noisy_log(50)),
              {80, 24});
}

TEST(load_line, NamesTheTablesLoadingAndDone) {
  EXPECT_EQ(load_line(half_loaded_by_table()),
            "load: 1/2 warehouses, 500000 rows (50%), 16667 rows/s, 1.7 MiB/s, ETA 30 s"
            " | loading customer 50% 2.0 MiB/s ETA 15 s | done warehouse item");
}

TEST(text, ClockTimeProgressBarAndFit) {
  EXPECT_EQ(clock_time(65.9), "1:05");
  EXPECT_EQ(clock_time(3725), "1:02:05");
  EXPECT_EQ(clock_time(-3), "0:00");
  EXPECT_EQ(progress_bar(0.5, 12), "[#####.....]");
  EXPECT_EQ(progress_bar(2.0, 4), "[##]");
  EXPECT_EQ(fit("abcdef", 4), "abc~");
  EXPECT_EQ(fit("abc", 4), "abc");
  EXPECT_EQ(short_number(950), "950");
  EXPECT_EQ(short_number(12345), "12k");
  EXPECT_EQ(short_number(2.5e6), "2.5M");
}

}  // namespace
}  // namespace tpcc::ui
