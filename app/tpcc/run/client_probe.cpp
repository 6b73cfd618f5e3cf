// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/client_probe.cpp: the per-worker probes (see client_probe.hpp).
#include "run/client_probe.hpp"

#include <algorithm>

#include "shoal/clock.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/yield.hpp"
#include "stats/process.hpp"

namespace tpcc::run {
namespace {

// Keeps a gate token for as long as the probe runs.
shoal::task<void> probe(shoal::gate_token token, client_probes::slot& s,
                        const stats::recorder& window) {
  s.begin(stats::thread_cpu_time(), shoal::now());
  shoal::time_point deadline = shoal::now() + client_probes::period;
  while (true) {
    const bool due = co_await shoal::sleep_until(deadline);
    if (!due) break;  // the run is over
    const shoal::time_point woke = shoal::now();
    co_await shoal::yield();
    const shoal::time_point ran = shoal::now();
    s.add(woke - deadline, ran - woke, stats::thread_cpu_time(), ran, window.in_window(woke));
    deadline = ran + client_probes::period;
  }
  token.reset();  // leaves the gate
}

}  // namespace

std::optional<double> probe_interval::busy() const {
  if (cpu_at <= from_at) return std::nullopt;
  const double wall = std::chrono::duration<double>(cpu_at - from_at).count();
  const double used = std::chrono::duration<double>(cpu - cpu_from).count();
  return std::clamp(used / wall, 0.0, 1.0);
}

void client_probes::slot::begin(std::chrono::nanoseconds cpu, stats::clock::time_point at) {
  const std::scoped_lock lock(mutex);
  now.cpu_from = now.cpu = cpu;
  now.from_at = now.cpu_at = at;
}

void client_probes::slot::add(std::chrono::nanoseconds late, std::chrono::nanoseconds queued,
                              std::chrono::nanoseconds cpu, stats::clock::time_point at,
                              bool in_window) {
  const std::scoped_lock lock(mutex);
  now.lateness.record(late);
  now.queue_delay.record(queued);
  now.cpu = cpu;
  now.cpu_at = at;
  if (!in_window) return;
  window_lateness.record(late);
  window_queue_delay.record(queued);
}

client_probes::client_probes(std::size_t workers, const stats::recorder& window) : window_(window) {
  slots_.reserve(workers);
  for (std::size_t k = 0; k < workers; ++k) slots_.push_back(std::make_unique<slot>());
}

void client_probes::start(shoal::thread_pool& pool, shoal::gate& g, const std::stop_token& stop) {
  for (std::size_t k = 0; k < slots_.size() && k < pool.size(); ++k) {
    pool.spawn_on(k, shoal::with_stop_token(stop, probe(g.enter(), *slots_[k], window_)));
  }
}

probe_interval client_probes::take(std::size_t k) {
  slot& s = *slots_.at(k);
  const std::scoped_lock lock(s.mutex);
  probe_interval out = s.now;
  s.now = probe_interval{};
  s.now.cpu_from = s.now.cpu = out.cpu;  // the latest reading: the base of the next interval
  s.now.from_at = s.now.cpu_at = out.cpu_at;
  return out;
}

stats::histogram client_probes::window_lateness() const {
  stats::histogram all;
  for (const auto& s : slots_) {
    const std::scoped_lock lock(s->mutex);
    all.merge(s->window_lateness);
  }
  return all;
}

stats::histogram client_probes::window_queue_delay() const {
  stats::histogram all;
  for (const auto& s : slots_) {
    const std::scoped_lock lock(s->mutex);
    all.merge(s->window_queue_delay);
  }
  return all;
}

}  // namespace tpcc::run
