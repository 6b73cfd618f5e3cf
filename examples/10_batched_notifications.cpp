// SPDX-License-Identifier: Apache-2.0
// 10_batched_notifications: the corobatch use case, written once per user, batched by shoal.
//
// "Notify the users who want it": each user is a coroutine that asks a service for its
// preferences and, if it wants mail, sends one. Batched, both calls go through a shoal::batcher,
// so the service gets one bulk call per batch (flushed at 1,000 users, or as soon as the worker
// has nothing else to run); unbatched, the same coroutine makes one call per user. The service
// is simulated in memory (NO DATABASE): 4 connections, 1 ms per call whatever it carries.
// (This use case against PostgreSQL, as measured earlier: docs/benchmarks-history.md.)
#include <shoal/async_semaphore.hpp>
#include <shoal/batcher.hpp>
#include <shoal/sleep.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/thread_pool.hpp>
#include <shoal/when_all.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "support/check.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;

constexpr int users = 3'000;  // one in three does not want mail
struct prefs {
  bool wants_mail = false;
  std::string email;
};

struct service {
  shoal::async_semaphore connections{4};
  std::atomic<int> calls{0}, rows{0};  // relaxed: read after the join
  task<void> round_trip() {
    const shoal::semaphore_permit connection = co_await connections.scoped_acquire();
    calls.fetch_add(1, std::memory_order_relaxed);
    co_await shoal::sleep_for(1ms);
  }
  task<std::vector<prefs>> get_prefs(std::span<int> ids) {  // "SELECT ... WHERE id = ANY($1)"
    co_await round_trip();
    std::vector<prefs> out;
    for (const int id : ids) out.push_back({id % 3 != 0, "user" + std::to_string(id) + "@example"});
    co_return out;
  }
  task<std::vector<bool>> send(std::span<std::string> emails) {  // one multi-row INSERT
    co_await round_trip();
    rows.fetch_add(static_cast<int>(emails.size()), std::memory_order_relaxed);
    co_return std::vector<bool>(emails.size(), true);
  }
};

struct one_by_one {  // the baseline: each call on its own, awaited like a batcher
  service& svc;
  task<std::optional<prefs>> operator()(int id) { co_return (co_await svc.get_prefs({&id, 1}))[0]; }
  task<std::optional<bool>> operator()(std::string e) { co_return (co_await svc.send({&e, 1}))[0]; }
};

template <class GetPrefs, class Send>  // the per-user code, the same in both modes
task<bool> notify_user(GetPrefs& get_prefs, Send& send, int user) {
  const std::optional<prefs> p = co_await get_prefs(user);
  if (!p || !p->wants_mail) co_return false;
  const std::optional<bool> sent = co_await send(p->email);  // g++ 12: not (co_await x).y
  co_return sent.value_or(false);
}

template <class GetPrefs, class Send>
task<int> notify_everyone(shoal::thread_pool& pool, GetPrefs& get_prefs, Send& send) {
  co_await pool.schedule();
  std::vector<task<bool>> each;
  for (int u = 1; u <= users; ++u) each.push_back(notify_user(get_prefs, send, u));
  co_return static_cast<int>(std::ranges::count(co_await shoal::when_all(std::move(each)), true));
}

template <class GetPrefs, class Send>
void run(const char* mode, shoal::thread_pool& pool, service& svc, GetPrefs& g, Send& s) {
  const auto start = std::chrono::steady_clock::now();
  const int notified = shoal::sync_wait(notify_everyone(pool, g, s));
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  std::printf("%s: %d users, %d calls in %.3f s; %d notified\n", mode, users, svc.calls.load(),
              took.count(), notified);
  examples::check(notified == users / 3 * 2 && svc.rows == notified, "each who wants mail got one");
}

}  // namespace

int main() {
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  service bulk;
  shoal::batcher<int, prefs> get_prefs([&](std::span<int> ids) { return bulk.get_prefs(ids); },
                                       {.max_size = 1'000});
  shoal::batcher<std::string, bool> send([&](std::span<std::string> e) { return bulk.send(e); },
                                         {.max_size = 1'000});
  run("batched", pool, bulk, get_prefs, send);
  examples::check(bulk.calls >= 5 && bulk.calls <= 60, "batched: a few calls, 1,000 users at most");
  service single;
  one_by_one calls{single};
  run("unbatched", pool, single, calls, calls);
  examples::check(single.calls == users + users / 3 * 2, "unbatched: one call per user and mail");
  shoal::sync_wait(pool.stop());
  return examples::finish("10_batched_notifications");
}
