// SPDX-License-Identifier: Apache-2.0
// Opening the simulated database (sim.hpp).
#include "driver/sim/sim.hpp"

#include <atomic>
#include <memory>
#include <utility>

#include "driver/pool/session_pool.hpp"
#include "driver/sim/server_clock.hpp"
#include "driver/sim/sim_database.hpp"
#include "driver/sim/sim_session.hpp"

namespace tpcc::driver::sim {
namespace {

outcome refuse(std::string why) { return outcome::make(outcome_kind::failed, "", std::move(why)); }

shoal::task<pool::factory_result> open_session(settings s, world w, std::uint64_t seed,
                                               std::shared_ptr<server_clock> server) {
  co_return std::unique_ptr<session>(
      std::make_unique<sim_session>(s.latency, w, seed, s.slow, std::move(server)));
}

pool::session_factory factory(settings s, world w) {
  auto next_seed = std::make_shared<std::atomic<std::uint64_t>>(1);
  // capacity=N: every session of the database queues on the same server.
  std::shared_ptr<server_clock> server;
  if (s.capacity > 0) server = std::make_shared<server_clock>(static_cast<double>(s.capacity));
  return [s, w, next_seed, server] {
    // Each session draws its own plausible values; relaxed: a counter only.
    return open_session(s, w, next_seed->fetch_add(1, std::memory_order_relaxed), server);
  };
}

std::string description(const settings& s) {
  std::string out = canonical(s);
  out += s.capacity > 0
             ? " (SIMULATED: not a database; every round trip answered after the "
               "latency, transactions queued beyond the capacity per second)"
             : " (SIMULATED: not a database; every round trip answered after the latency)";
  return out;
}

pool::session_pool_options pool_options(const settings& s, const database_options& options) {
  pool::session_pool_options out;
  out.size = options.connections;
  out.description = canonical(s);
  out.factory = factory(s, world{.warehouses = options.warehouses});
  return out;
}

}  // namespace

shoal::task<open_result> open(const database_options& options) {
  auto parsed = parse_target(options.target);
  if (auto* wrong = std::get_if<std::string>(&parsed)) co_return refuse(std::move(*wrong));
  const settings s = std::get<settings>(parsed);
  if (options.warehouses < 1) {
    co_return refuse(
        "the simulated database (--db sim:...) has as many warehouses as --warehouses N "
        "asks for: give --warehouses");
  }
  open_result opened = co_await pool::session_pool::open(pool_options(s, options));
  if (auto* failure = std::get_if<outcome>(&opened)) co_return std::move(*failure);
  auto inner = std::move(std::get<std::unique_ptr<database>>(opened));
  co_return std::unique_ptr<database>(
      std::make_unique<sim_database>(std::move(inner), description(s)));
}

}  // namespace tpcc::driver::sim
