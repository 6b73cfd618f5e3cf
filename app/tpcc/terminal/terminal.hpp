// SPDX-License-Identifier: Apache-2.0
// app/tpcc/terminal/terminal.hpp: one emulated terminal (clause 5.2): a coroutine.
//
// What: a terminal has a fixed home warehouse and a fixed district for Stock-Level (clause
// 2.8.1.1). It loops: pick the next transaction from its deck (clause 5.2.4.2), wait the
// keying time (5.2.5.7), key the input (txn/generate.hpp), submit it and wait for the answer,
// then think (negative exponential, truncated at 10x the mean, 5.2.5.4). It borrows a
// connection for each transaction only (txn/execute.hpp), so terminals far outnumber
// connections. A Delivery is deferred (clause 2.7.2): the terminal queues it and has its
// answer at once; a deliverer (deliverer.hpp) runs it later.
// Each transaction's response time, queueing and service time and outcome go to the recorder.
// Memory: a sleeping terminal (nearly all of them, nearly all the time) is one frame (the loop,
// with its deck, random stream and gate token; it is its chain's root: shoal::detached_task) and
// one timer: the think time of one transaction and the keying time of the next are one sleep,
// and a transaction's own state lives in frames that exist only while it runs (see
// docs/benchmarks.md, "Client capacity", for the bytes per terminal).
//
// Spawning run_terminal:
//   Result: none (a detached_task): it ends when the chain's stop token is requested (it
//           finishes the transaction in flight first) or a bug stopped the run (context.fail()).
//           `admission` (the run's gate of terminals) is held until the terminal's frame is
//           destroyed.
//   Errors: none escape: an unexpected exception is handed to context.fail().
//   Cancellation: the chain's token is the run's issue_stop: spawn the terminal under it
//                 (`pool.spawn_on(k, run_terminal(...), ctx.issue_stop.get_token())`); its sleeps
//                 wake on it, its transactions run under hard_stop only (context.hpp).
//   Resumes on: worker k, the one it was spawned on (thread_pool::spawn_on binds it).
//   Thread-safety: one coroutine per terminal; the context is shared.
#pragma once

#include <chrono>
#include <cstdint>

#include "random/rng.hpp"
#include "shoal/detached_task.hpp"
#include "shoal/gate.hpp"
#include "terminal/context.hpp"

namespace tpcc::terminal {

// 8 bytes: it lives in every sleeping terminal's frame (32-bit ids: up to 2^31 warehouses).
struct terminal_config {
  std::int32_t w_id = 1;
  std::int32_t stock_level_d_id = 1;
};

// `start_delay`: the ramp-up, when to start within the warm-up.
shoal::detached_task run_terminal(run_context& ctx, terminal_config config,
                                  std::chrono::nanoseconds start_delay, random::rng rng,
                                  shoal::gate_token admission);

// The same terminal under `run --rate` (ctx.pace active, ctx.pace_stats set): no keying or think
// times; it starts each transaction at its intended start (terminal/pace.hpp), or at once when
// already late, counts the response time from the intended start and reports each start to
// ctx.pace_stats (and, leaving, the due starts it never began). Spawned and ended as run_terminal;
// `start_delay` is its first intended start's offset before the first gap.
shoal::detached_task run_paced_terminal(run_context& ctx, terminal_config config,
                                        std::chrono::nanoseconds start_delay, random::rng rng,
                                        shoal::gate_token admission);

}  // namespace tpcc::terminal
