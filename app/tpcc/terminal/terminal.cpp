// SPDX-License-Identifier: Apache-2.0
// app/tpcc/terminal/terminal.cpp: the terminal loop of clause 5.2 (see terminal.hpp).
#include "terminal/terminal.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <string>

#include "random/think_time.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "terminal/deck.hpp"
#include "terminal/transact.hpp"
#include "txn/new_order.hpp"
#include "txn/order_status.hpp"
#include "txn/payment.hpp"
#include "txn/procedures.hpp"
#include "txn/stock_level.hpp"

namespace tpcc::terminal {
namespace {

using clock = stats::clock;
using std::chrono::nanoseconds;

nanoseconds scaled(nanoseconds d, double scale) {
  return nanoseconds(std::llround(static_cast<double>(d.count()) * scale));
}

nanoseconds keying_time(txn::kind k, double scale) {
  const auto seconds = std::chrono::duration<double>(txn::keying_seconds[txn::index(k)]);
  return scaled(std::chrono::duration_cast<nanoseconds>(seconds), scale);
}

void count(const txn::new_order_input& in, stats::input_counts& c) {
  c.new_orders = 1;
  c.order_lines = in.lines.size();
  for (const auto& line : in.lines) c.remote_lines += line.supply_w_id != in.w_id ? 1 : 0;
  c.rollbacks_asked = in.rollback ? 1 : 0;
}

void count(const txn::payment_input& in, stats::input_counts& c) {
  c.payments = 1;
  c.remote_payments = in.c_w_id != in.w_id ? 1 : 0;
  c.payments_by_name = in.customer.by_last_name ? 1 : 0;
}

void count(const txn::order_status_input& in, stats::input_counts& c) {
  c.order_statuses = 1;
  c.order_statuses_by_name = in.customer.by_last_name ? 1 : 0;
}

// A transaction body: runs `Input` through `run` into an `Output`.
template <class Input, class Output>
using runner = shoal::task<driver::outcome> (*)(driver::session&, const Input&, Output&);

// The body borrows the input and output of the coroutine that awaits it.
template <class Input, class Output>
auto bind_body(const Input& in, Output& out, runner<Input, Output> run) {
  return [&in, &out, run](driver::session& s) { return run(s, in, out); };
}

// Runs one keyed input; the output (the terminal's screen) is not kept.
template <class Input, class Output>
[[gnu::noinline]] shoal::task<transacted> perform(run_context& ctx, Input in,
                                                  runner<Input, Output> run) {
  Output out;
  auto t = co_await transact(ctx, in.w_id, bind_body(in, out, run));
  co_return t;
}

shoal::task<transacted> new_order(run_context& ctx, random::rng& rng, std::int64_t w,
                                  stats::input_counts& c) {
  txn::new_order_input in = txn::make_new_order(rng, ctx.scope, w);
  count(in, c);
  return perform(ctx, std::move(in), ctx.procedures ? &txn::call_new_order : &txn::run_new_order);
}

shoal::task<transacted> payment(run_context& ctx, random::rng& rng, std::int64_t w,
                                stats::input_counts& c) {
  txn::payment_input in = txn::make_payment(rng, ctx.scope, w);
  count(in, c);
  return perform(ctx, std::move(in), ctx.procedures ? &txn::call_payment : &txn::run_payment);
}

shoal::task<transacted> order_status(run_context& ctx, random::rng& rng, std::int64_t w,
                                     stats::input_counts& c) {
  txn::order_status_input in = txn::make_order_status(rng, ctx.scope, w);
  count(in, c);
  return perform(ctx, std::move(in),
                 ctx.procedures ? &txn::call_order_status : &txn::run_order_status);
}

shoal::task<transacted> stock_level(run_context& ctx, random::rng& rng,
                                    const terminal_config& config) {
  return perform(ctx, txn::make_stock_level(rng, config.w_id, config.stock_level_d_id),
                 ctx.procedures ? &txn::call_stock_level : &txn::run_stock_level);
}

delivery_request make_request(random::rng& rng, std::int64_t w) {
  return delivery_request{txn::make_delivery(rng, w), clock::now()};
}

transacted queued(bool sent, bool stopping) {
  transacted t;
  if (sent) return t;
  t.report.status = driver::outcome::make(driver::outcome_kind::failed, "",
                                          "the deferred Delivery could not be queued");
  t.abandoned = stopping;
  return t;
}

// Clause 2.7.2: the terminal's part of a Delivery is queueing it.
[[gnu::noinline]] shoal::task<transacted> delivery(run_context& ctx, random::rng& rng,
                                                   std::int64_t w) {
  const bool sent = co_await shoal::with_stop_token(ctx.hard_stop.get_token(),
                                                    ctx.queue_for(w).send(make_request(rng, w)));
  const transacted t = queued(sent, ctx.hard_stop.stop_requested());
  co_return t;
}

// The keyed transaction of type k, not yet started: a plain function, so that transact_once
// awaits one task (one awaiter, one result) whatever the type, and only the chosen type's frame
// exists while it runs.
shoal::task<transacted> submit(run_context& ctx, txn::kind k, random::rng& rng,
                               const terminal_config& config, stats::input_counts& c) {
  if (k == txn::kind::new_order) return new_order(ctx, rng, config.w_id, c);
  if (k == txn::kind::payment) return payment(ctx, rng, config.w_id, c);
  if (k == txn::kind::order_status) return order_status(ctx, rng, config.w_id, c);
  if (k == txn::kind::delivery) return delivery(ctx, rng, config.w_id);
  return stock_level(ctx, rng, config);
}

nanoseconds think(txn::kind k, random::rng& rng, double scale) {
  return scaled(random::think_time(rng, txn::think_mean_seconds[txn::index(k)]), scale);
}

// The think time the terminal actually slept (its sleep less the next keying time), scaled
// back by the wait scale, for the think-time audit (clause 5.2.5.4), counted in the window it
// BEGAN in (`asleep`, the end of the transaction it follows), so that a late timer or a starved
// client shows. Counted by start, a window's thinks are an unbiased sample of the client's
// whatever the window's length; one cut short by the run's end (`on_time` false before its draw
// had passed) is censored: its elapsed part is recorded as such (the estimator,
// report/verdict_audit.cpp, is the censored exponential's). Counting the thinks that ended in
// the window kept the short ones of a window about as long as one think (2.77 s for the spec's
// 10.9 s over 12 s). How late the sleep woke past `drawn + keying` is recorded beside it, so that
// the audit can tell the draws from the timer's lateness.
void record_slept(run_context& ctx, txn::kind k, nanoseconds drawn, nanoseconds keying,
                  clock::time_point asleep, bool on_time) {
  if (ctx.wait_scale <= 0) return;
  const nanoseconds elapsed = clock::now() - asleep;
  const double mean = txn::think_mean_seconds[txn::index(k)];
  stats::think_sample think;
  nanoseconds thought = std::max(nanoseconds(0), elapsed - keying);
  if (on_time) {
    think.late = std::max(nanoseconds(0), elapsed - keying - drawn);
    think.late_relative =
        std::chrono::duration<double>(scaled(think.late, 1.0 / ctx.wait_scale)).count() / mean;
  } else {
    think.censored = elapsed < drawn;
    thought = std::min(elapsed, drawn);
  }
  think.slept = scaled(thought, 1.0 / ctx.wait_scale);
  think.relative = std::chrono::duration<double>(think.slept).count() / mean;
  ctx.recorder.record_think(think, asleep);
}

// The terminal's group (stats::terminal_group_count): the terminal's place in the run's
// sequence of terminals, ten per warehouse.
std::uint16_t group_of(const terminal_config& config) {
  const auto t = static_cast<std::uint64_t>(config.w_id - 1) * 10 +
                 static_cast<std::uint64_t>(config.stock_level_d_id - 1);
  return static_cast<std::uint16_t>(t % stats::terminal_group_count);
}

// One keyed transaction: submitted, answered, recorded; returns the think time that follows.
// Not inlined, so its frame (the report, the inputs, the transaction's own frames) exists only
// while the transaction runs, never inside the sleeping terminal's frame (coroutine frame
// elision would otherwise embed it there).
// The response time counts from `start`: now, or a paced terminal's intended start.
[[gnu::noinline]] shoal::task<nanoseconds> transact_once(run_context& ctx, txn::kind k,
                                                         random::rng& rng,
                                                         const terminal_config& config,
                                                         clock::time_point start) {
  stats::input_counts keyed;
  const transacted done = co_await submit(ctx, k, rng, config, keyed);
  const clock::time_point end = clock::now();
  show_failure(ctx, k, done);
  stats::txn_record record = to_record(k, done, end - start, end);
  record.group = group_of(config);
  ctx.recorder.record(record);
  if (stats::recorder* own = ctx.endpoint_recorder(config.w_id)) own->record(record);
  ctx.recorder.record_inputs(keyed, start);
  co_return think(k, rng, ctx.wait_scale);
}

// A bug stopped the terminal: the run stops, naming it. Out of line, so that the message's
// strings are not in the sleeping terminal's frame.
[[gnu::noinline, gnu::cold]] void fail(run_context& ctx, const terminal_config& config,
                                       const std::exception& e) {
  ctx.fail(std::string("terminal of warehouse ") + std::to_string(config.w_id) + ": " + e.what());
}

// What a terminal keeps across its sleep besides the sleep itself: when it began and the type
// whose think time it holds. The sleep (the start delay first, then each think time plus the next
// keying time) is run_terminal's `start_delay` parameter, reused. Only the helpers below touch
// them, by reference, so the compiler keeps each once, in memory, instead of spilling copies of
// derived values (the think time, the keying time) into the sleeping terminal's frame.
struct cycle {
  clock::time_point asleep{};
  txn::kind last = txn::kind::new_order;
  bool thought = false;  // the sleep holds a think time (not before the first card)
};

// Adds card k's keying time to the sleep and notes when it begins; returns the sleep.
[[gnu::noinline]] nanoseconds begin_sleep(const run_context& ctx, nanoseconds& wait, cycle& c,
                                          txn::kind k) {
  wait += keying_time(k, ctx.wait_scale);
  c.asleep = clock::now();
  return wait;
}

// The think time just slept, for the audit (record_slept); none before the first card.
[[gnu::noinline]] void end_sleep(run_context& ctx, const nanoseconds& wait, const cycle& c,
                                 txn::kind k, bool on_time) {
  if (!c.thought) return;
  const nanoseconds keying = keying_time(k, ctx.wait_scale);
  record_slept(ctx, c.last, wait - keying, keying, c.asleep, on_time);
}

// A paced terminal leaves: the intended starts already due that it will never begin, up to
// the window's end, are the backlog it leaves behind (bounded, should a clock jump).
[[gnu::noinline]] void leave_paced(run_context& ctx, paced_clock& pace, random::rng& rng) {
  const clock::time_point until = std::min(clock::now(), ctx.pace_stats->window_end());
  for (int n = 0; pace.intended <= until && n < (1 << 24); ++n) {
    ctx.pace_stats->never_began(pace.intended);
    pace.advance(rng, ctx.pace.gap());
  }
}

// A paced terminal begins the transaction intended at pace.intended, now (late, when now is
// past it: behind until now); returns what its response time counts from, the intended start.
[[gnu::noinline]] clock::time_point begin_paced(run_context& ctx, const paced_clock& pace) {
  const clock::time_point now = clock::now();
  ctx.pace_stats->began(pace.intended, std::max(now, pace.intended));
  return pace.intended;
}

}  // namespace

// --rate's cycle: sleep until the intended start (none when already late), run the keyed
// transaction with its response time counted from the intended start, draw the next.
shoal::detached_task run_paced_terminal(run_context& ctx, terminal_config config,
                                        nanoseconds start_delay, random::rng rng,
                                        shoal::gate_token admission) {
  static_cast<void>(admission);
  try {
    terminal::deck deck;
    paced_clock pace{clock::now() + start_delay};
    pace.advance(rng, ctx.pace.gap());
    for (;;) {
      const txn::kind k = deck.next(rng);
      bool going = !ctx.issue_stop.stop_requested();
      if (going && pace.intended > clock::now()) {
        going = co_await shoal::sleep_until(pace.intended);
      }
      if (!going) break;
      const clock::time_point start = begin_paced(ctx, pace);
      static_cast<void>(co_await transact_once(ctx, k, rng, config, start));
      pace.advance(rng, ctx.pace.gap());
    }
    leave_paced(ctx, pace, rng);
  } catch (const std::exception& e) {
    fail(ctx, config, e);
  }
}

// The terminal's cycle, under the run's issue_stop (the chain's token): the think time of the
// last transaction and the keying time of the next are one sleep, so a sleeping terminal is this
// frame and one timer. False from the sleep: the run stopped issuing. One frame, the chain's root
// (shoal::detached_task), with the catch, so nothing else lives beside it while the terminal
// sleeps; `admission` leaves the gate when the frame is destroyed.
// Its size is the client's memory per terminal: 320 bytes under clang 19 (release), the top of
// the frame allocator's class 4 (shoal/frame_allocator.hpp: classes of 64 bytes). A byte more
// takes a class of 384: 61 MiB more for a million terminals (docs/benchmarks.md, the capacity
// run). Measure with scripts/capacity.sh before adding to it.
shoal::detached_task run_terminal(run_context& ctx, terminal_config config, nanoseconds start_delay,
                                  random::rng rng, shoal::gate_token admission) {
  static_cast<void>(admission);
  try {
    terminal::deck deck;
    nanoseconds& wait = start_delay;  // the sleep to come
    cycle c;
    for (;;) {
      const txn::kind k = deck.next(rng);
      bool going = !ctx.issue_stop.stop_requested();
      const nanoseconds sleep = begin_sleep(ctx, wait, c, k);
      if (going && sleep > nanoseconds(0)) going = co_await shoal::sleep_for(sleep);
      end_sleep(ctx, wait, c, k, going);
      if (!going) break;
      wait = co_await transact_once(ctx, k, rng, config, clock::now());
      c.thought = true;
      c.last = k;
    }
  } catch (const std::exception& e) {
    fail(ctx, config, e);
  }
}

}  // namespace tpcc::terminal
