// SPDX-License-Identifier: Apache-2.0
// tests/app/run/sim_test.cpp: the capacity mode's simulated database (driver/sim/): targets,
// answers after the latency, a simulated load the run accepts, the five real transactions on
// its answers, and the binary run as users run it: labelled, all five types committed, bad
// targets and commands refused with clear messages.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "binary.hpp"
#include "driver/open.hpp"
#include "driver/sim/server_clock.hpp"
#include "driver/sim/sim.hpp"
#include "random/rng.hpp"
#include "running_pool.hpp"
#include "schema/meta.hpp"
#include "schema/schema.hpp"
#include "shoal/sync_wait.hpp"
#include "txn/delivery.hpp"
#include "txn/execute.hpp"
#include "txn/generate.hpp"
#include "txn/new_order.hpp"
#include "txn/order_status.hpp"
#include "txn/payment.hpp"
#include "txn/stock_level.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::driver::database;
using tpcc::driver::outcome_kind;
using tpcc::testing::binary_result;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::run_binary;
namespace sim = tpcc::driver::sim;
namespace txn = tpcc::txn;

std::string problem_of(const std::string& target) {
  auto parsed = sim::parse_target(target);
  const auto* wrong = std::get_if<std::string>(&parsed);
  return wrong != nullptr ? *wrong : std::string();
}

TEST(sim_target, LatencyIsReadWithItsUnit) {
  auto parsed = sim::parse_target("sim:latency=5ms");
  ASSERT_TRUE(std::holds_alternative<sim::settings>(parsed)) << problem_of("sim:latency=5ms");
  EXPECT_EQ(std::get<sim::settings>(parsed).latency, 5ms);
  parsed = sim::parse_target("sim:latency=250us");
  ASSERT_TRUE(std::holds_alternative<sim::settings>(parsed));
  EXPECT_EQ(std::get<sim::settings>(parsed).latency, 250us);
  EXPECT_EQ(sim::canonical(std::get<sim::settings>(parsed)), "sim:latency=250us");
}

TEST(sim_target, SlowAddsLatencyToOneTransactionTypeAndIsRefusedWhenMalformed) {
  const std::string target = "sim:latency=1ms,slow=new_order:20ms,slow=stock_level:500us";
  auto parsed = sim::parse_target(target);
  ASSERT_TRUE(std::holds_alternative<sim::settings>(parsed)) << problem_of(target);
  const sim::settings s = std::get<sim::settings>(parsed);
  EXPECT_EQ(s.slow[sim::slowed_index("tpcc_no_stock_03")], 20ms);
  EXPECT_EQ(s.slow[sim::slowed_index("tpcc_sl_low_stock")], 500us);
  EXPECT_EQ(s.slow[sim::slowed_index("tpcc_pay_customer")], 0ms);
  EXPECT_EQ(sim::slowed_index("tpcc_meta_get"), sim::slowed_types.size());
  EXPECT_EQ(sim::canonical(s), target);
  for (const char* bad : {"sim:latency=1ms,slow=new_order", "sim:latency=1ms,slow=neworder:5ms",
                          "sim:latency=1ms,slow=payment:5", "sim:latency=1ms,slow=:5ms"}) {
    EXPECT_TRUE(contains(problem_of(bad), "slow expects TYPE:DURATION with TYPE new_order"))
        << bad << ": " << problem_of(bad);
  }
  EXPECT_TRUE(contains(problem_of("sim:slow=payment:5ms"), "needs latency=DURATION"));
}

TEST(sim_target, MalformedTargetsAreRefusedNamingWhatIsWrong) {
  EXPECT_TRUE(contains(problem_of("sim:"), "needs latency=DURATION")) << problem_of("sim:");
  EXPECT_TRUE(contains(problem_of("sim:latency=fast"), "latency expects a duration"));
  EXPECT_TRUE(contains(problem_of("sim:latency=5"), "not '5'"));
  EXPECT_TRUE(contains(problem_of("sim:latency=2m"), "not '2m'"));
  EXPECT_TRUE(contains(problem_of("sim:speed=1"), "unknown setting 'speed'"));
  EXPECT_TRUE(contains(problem_of("sim:latency"), "expected key=value"));
  EXPECT_TRUE(contains(problem_of("sim:latency=5ms,latency=oops"), "not 'oops'"));
}

TEST(sim_target, CapacityIsTransactionsPerSecondAndKeptInTheCanonicalForm) {
  auto parsed = sim::parse_target("sim:latency=2ms,capacity=500");
  ASSERT_TRUE(std::holds_alternative<sim::settings>(parsed))
      << problem_of("sim:latency=2ms,capacity=500");
  EXPECT_EQ(std::get<sim::settings>(parsed).capacity, 500);
  EXPECT_EQ(sim::canonical(std::get<sim::settings>(parsed)), "sim:latency=2ms,capacity=500");
  EXPECT_TRUE(contains(problem_of("sim:latency=1ms,capacity=0"), "capacity expects"));
  EXPECT_TRUE(contains(problem_of("sim:latency=1ms,capacity=fast"), "not 'fast'"));
  EXPECT_TRUE(contains(problem_of("sim:latency=1ms,capacity=-3"), "not '-3'"));
}

// The shared server on fixed time points: back to back when busy, from `now` when idle.
TEST(sim_server, TransactionsQueueOnTheSharedServerBeyondItsCapacity) {
  sim::server_clock server(100);  // 10 ms a transaction
  const auto t0 = std::chrono::steady_clock::time_point{} + 1h;
  EXPECT_EQ(server.take(t0), t0 + 10ms);
  EXPECT_EQ(server.take(t0), t0 + 20ms);  // queued behind the first
  EXPECT_EQ(server.take(t0 + 5ms), t0 + 30ms);
  EXPECT_EQ(server.take(t0 + 100ms), t0 + 110ms);  // idle meanwhile: served at once
}

// A simulated database open on a running pool, closed at the end.
struct simulated {
  shoal::testing::running_pool workers{2};
  std::unique_ptr<database> db;

  explicit simulated(const std::string& target, std::int64_t warehouses = 3) {
    tpcc::driver::database_options options;
    options.target = target;
    options.connections = 4;
    options.warehouses = warehouses;
    auto opened = shoal::sync_wait(open(workers.pool, options));
    if (auto* failed = std::get_if<tpcc::driver::outcome>(&opened)) {
      ADD_FAILURE() << failed->message;
      return;
    }
    db = std::move(std::get<std::unique_ptr<database>>(opened));
  }
  ~simulated() {
    if (db) shoal::sync_wait(close(workers.pool, *db));
  }
  simulated(const simulated&) = delete;
  simulated& operator=(const simulated&) = delete;

  static shoal::task<tpcc::driver::open_result> open(shoal::thread_pool& pool,
                                                     tpcc::driver::database_options options) {
    co_await pool.schedule();
    co_return co_await tpcc::driver::open_database(std::move(options));
  }
  static shoal::task<void> close(shoal::thread_pool& pool, database& db) {
    co_await pool.schedule();
    co_await db.close();
  }
  template <class Task>
  auto on_pool(Task work) {
    return shoal::sync_wait(scheduled(workers.pool, std::move(work)));
  }
  template <class Task>
  static Task scheduled(shoal::thread_pool& pool, Task work) {
    co_await pool.schedule();
    co_return co_await std::move(work);
  }
};

TEST(sim_driver, OpeningNeedsAWarehouseCountAndLabelsTheDatabase) {
  shoal::testing::running_pool workers(1);
  tpcc::driver::database_options options;
  options.target = "sim:latency=1ms";
  auto refused = shoal::sync_wait(simulated::open(workers.pool, options));
  ASSERT_TRUE(std::holds_alternative<tpcc::driver::outcome>(refused));
  EXPECT_TRUE(contains(std::get<tpcc::driver::outcome>(refused).message, "--warehouses"));

  simulated s("sim:latency=1ms");
  ASSERT_TRUE(s.db);
  EXPECT_TRUE(s.db->simulated());
  EXPECT_TRUE(contains(s.db->describe(), "SIMULATED")) << s.db->describe();
  EXPECT_TRUE(contains(s.db->describe(), "sim:latency=1ms")) << s.db->describe();
}

struct timed_batch {
  std::chrono::nanoseconds took{0};
  std::uint64_t trips_for_begin = 0, trips_for_batch = 0;
  std::vector<tpcc::driver::statement_result> results;
};

std::vector<tpcc::driver::call> meta_calls() {
  std::vector<tpcc::driver::call> calls(2);
  calls[0].stmt = &tpcc::schema::meta_get;
  calls[0].params.emplace_back(std::string("warehouses"));
  calls[1].stmt = &tpcc::schema::loaded_list;
  return calls;
}

shoal::task<timed_batch> one_batch(database& db) {
  timed_batch out;
  tpcc::driver::lease l = co_await db.acquire();
  const std::uint64_t before = l->round_trips();
  const auto begun = co_await l->begin();
  static_cast<void>(begun);
  out.trips_for_begin = l->round_trips() - before;
  const std::vector<tpcc::driver::call> calls = meta_calls();
  const auto start = std::chrono::steady_clock::now();
  out.results = co_await l->execute_batch(calls, tpcc::driver::then::commit);
  out.took = std::chrono::steady_clock::now() - start;
  out.trips_for_batch = l->round_trips() - before - out.trips_for_begin;
  co_return out;
}

TEST(sim_driver, ABatchIsOneRoundTripAnsweredAfterTheLatency) {
  simulated s("sim:latency=60ms", 7);
  ASSERT_TRUE(s.db);
  const timed_batch b = s.on_pool(one_batch(*s.db));
  EXPECT_EQ(b.trips_for_begin, 0U);  // sent with the first statements
  EXPECT_EQ(b.trips_for_batch, 1U);
  EXPECT_GE(b.took, 60ms);
  ASSERT_EQ(b.results.size(), 3U);  // two statements and the commit
  for (const auto& r : b.results) EXPECT_TRUE(r.ok()) << r.status.message;
  ASSERT_EQ(b.results[0].rows.size(), 1U);
  EXPECT_EQ(b.results[0].rows[0].text_at(0), "7");
  EXPECT_EQ(b.results[1].rows.size(), 8U);  // items (0) and warehouses 1..7
}

TEST(sim_driver, ARunSeesACompleteLoadOfTheRequestedWarehouses) {
  simulated s("sim:latency=1ms", 15000);
  ASSERT_TRUE(s.db);
  auto read = s.on_pool(tpcc::schema::read_meta(*s.db));
  ASSERT_TRUE(std::holds_alternative<tpcc::schema::load_meta>(read));
  const auto& meta = std::get<tpcc::schema::load_meta>(read);
  EXPECT_EQ(meta.warehouses, 15000);
  EXPECT_TRUE(meta.is_loaded(0));
  EXPECT_TRUE(meta.is_loaded(15000));
  EXPECT_EQ(meta.loaded.size(), 15001U);
}

TEST(sim_driver, AStatementItDoesNotKnowFailsNamingIt) {
  simulated s("sim:latency=1ms");
  ASSERT_TRUE(s.db);
  auto task = [](database& db) -> shoal::task<tpcc::driver::statement_result> {
    tpcc::driver::lease l = co_await db.acquire();
    const tpcc::driver::statement odd{"tpcc_not_simulated", "SELECT 1"};
    std::vector<tpcc::driver::value> none;
    co_return co_await l->execute(odd, std::move(none));
  };
  const auto r = s.on_pool(task(*s.db));
  EXPECT_EQ(r.status.kind, outcome_kind::failed);
  EXPECT_TRUE(contains(r.status.message, "tpcc_not_simulated")) << r.status.message;
}

// The five transactions' real bodies on the simulated answers.
struct five_outcomes {
  txn::attempt_report new_order, unused_item, payment_by_number, payment_by_name;
  txn::attempt_report order_status_by_number, order_status_by_name, delivery, stock_level;
  int delivery_skipped = -1;
};

template <class Input, class Output, class Run>
shoal::task<txn::attempt_report> perform(database& db, Input in, Run run) {
  Output out;
  auto report = co_await txn::execute(
      db, [&](tpcc::driver::session& session) { return run(session, in, out); }, {});
  co_return report;
}

txn::payment_input payment_by(tpcc::random::rng& r, const txn::workload_scope& scope, bool name) {
  for (;;) {
    txn::payment_input in = txn::make_payment(r, scope, 1);
    if (in.customer.by_last_name == name) return in;
  }
}

txn::order_status_input status_by(tpcc::random::rng& r, const txn::workload_scope& scope,
                                  bool name) {
  for (;;) {
    txn::order_status_input in = txn::make_order_status(r, scope, 1);
    if (in.customer.by_last_name == name) return in;
  }
}

txn::new_order_input with_unused_item(txn::new_order_input in) {
  in.lines.back().i_id = txn::unused_item_id;
  in.rollback = true;
  return in;
}

shoal::task<void> run_five(database& db, five_outcomes& o) {
  tpcc::random::rng r(7);
  txn::workload_scope scope;
  scope.warehouses = 3;
  const txn::new_order_input order = txn::make_new_order(r, scope, 1);
  o.new_order =
      co_await perform<txn::new_order_input, txn::new_order_output>(db, order, &txn::run_new_order);
  o.unused_item = co_await perform<txn::new_order_input, txn::new_order_output>(
      db, with_unused_item(order), &txn::run_new_order);
  o.payment_by_number = co_await perform<txn::payment_input, txn::payment_output>(
      db, payment_by(r, scope, false), &txn::run_payment);
  o.payment_by_name = co_await perform<txn::payment_input, txn::payment_output>(
      db, payment_by(r, scope, true), &txn::run_payment);
  o.order_status_by_number = co_await perform<txn::order_status_input, txn::order_status_output>(
      db, status_by(r, scope, false), &txn::run_order_status);
  o.order_status_by_name = co_await perform<txn::order_status_input, txn::order_status_output>(
      db, status_by(r, scope, true), &txn::run_order_status);
  txn::delivery_output delivered;
  const txn::delivery_input delivery = txn::make_delivery(r, 1);
  o.delivery = co_await txn::execute(
      db, [&](tpcc::driver::session& s) { return txn::run_delivery(s, delivery, delivered); }, {});
  o.delivery_skipped = delivered.skipped;
  o.stock_level = co_await perform<txn::stock_level_input, txn::stock_level_output>(
      db, txn::make_stock_level(r, 1, 4), &txn::run_stock_level);
}

TEST(sim_driver, TheFiveTransactionsRunTheirRealPathsOnSimulatedAnswers) {
  simulated s("sim:latency=1ms");
  ASSERT_TRUE(s.db);
  five_outcomes o;
  s.on_pool(run_five(*s.db, o));
  EXPECT_TRUE(o.new_order.status.ok()) << o.new_order.status.message;
  EXPECT_EQ(o.new_order.round_trips, 2U);
  EXPECT_EQ(o.unused_item.status.kind, outcome_kind::rolled_back) << o.unused_item.status.message;
  EXPECT_TRUE(o.payment_by_number.status.ok()) << o.payment_by_number.status.message;
  EXPECT_EQ(o.payment_by_number.round_trips, 1U);
  EXPECT_TRUE(o.payment_by_name.status.ok()) << o.payment_by_name.status.message;
  EXPECT_EQ(o.payment_by_name.round_trips, 2U);
  EXPECT_TRUE(o.order_status_by_number.status.ok()) << o.order_status_by_number.status.message;
  EXPECT_TRUE(o.order_status_by_name.status.ok()) << o.order_status_by_name.status.message;
  EXPECT_TRUE(o.delivery.status.ok()) << o.delivery.status.message;
  EXPECT_EQ(o.delivery_skipped, 0);  // every district has an order to deliver
  EXPECT_TRUE(o.stock_level.status.ok()) << o.stock_level.status.message;
}

// The committed count of `name` in the summary's per-type table ("  New-Order   123 ...").
long long committed_in(const std::string& summary, const std::string& name) {
  const auto at = summary.find("\n  " + name + " ");
  if (at == std::string::npos) return -1;
  return std::atoll(summary.c_str() + at + 3 + name.size());
}

TEST(sim_binary, AShortSimulatedRunLabelsItselfAndCommitsAllFiveTypes) {
  const binary_result r =
      run_binary({"run", "--db", "sim:latency=2ms", "--warehouses", "2", "--warmup", "1s",
                  "--duration", "4s", "--drain", "5s", "--wait-scale", "0.005", "--seed", "9"},
                 120s);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "SIMULATED")) << r.out;
  for (const char* name : {"New-Order", "Payment", "Order-Status", "Delivery", "Stock-Level"}) {
    EXPECT_GT(committed_in(r.out, name), 0) << name << "\n" << r.out;
  }
}

TEST(sim_binary, BadSimulatedTargetsExitWithUsageStatusNamingTheSetting) {
  binary_result r = run_binary({"run", "--db", "sim:latency=soon", "--warehouses", "1"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "latency expects a duration")) << r.err;
  r = run_binary({"run", "--db", "sim:", "--warehouses", "1"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "needs latency=DURATION")) << r.err;
  r = run_binary({"run", "--db", "sim:latency=5ms,color=red", "--warehouses", "1"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "unknown setting 'color'")) << r.err;
}

TEST(sim_binary, OnlyRunWorksOnTheSimulatedDatabase) {
  for (const char* cmd : {"init", "load", "check", "clean"}) {
    const binary_result r = run_binary({cmd, "--db", "sim:latency=5ms"});
    EXPECT_EQ(r.exit_code, 2) << cmd << "\n" << describe(r);
    EXPECT_TRUE(contains(r.err, "only `shoal-tpcc run` works")) << cmd << "\n" << r.err;
  }
  binary_result r = run_binary({"--db", "sim:latency=5ms"});  // the default job
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  r = run_binary({"run", "--db", "sim:latency=5ms", "--no-progress"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_TRUE(contains(r.err, "--warehouses")) << r.err;
}

}  // namespace
