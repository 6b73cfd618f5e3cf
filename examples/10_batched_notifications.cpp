// 10_batched_notifications: the corobatch use case on PostgreSQL, written once per user.
//
// "Notify the users who want it": each user is a coroutine that asks for its preferences and,
// if it wants mail, sends one. Both steps go through a shoal::batcher, so what reaches the
// server is one `SELECT ... WHERE id = ANY($1)` per batch of users and one multi-row INSERT
// (unnest of two arrays) per batch of notifications, not two statements per user.
//
// usage: 10_batched_notifications DSN [--users N]
//   DSN  a libpq connection string; the program creates (and finally drops) its own tables
//        shoal_ex_users and shoal_ex_notifications there. Without a DSN (or with the
//        environment variable SHOAL_EXAMPLE_PG unset) it says so and exits 0: skipped.
// Prints the batches each step took and checks that every user who wants mail got exactly one.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "driver/open.hpp"
#include "shoal/batcher.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/thread_pool.hpp"
#include "shoal/when_all.hpp"

namespace {

using shoal::task;
using tpcc::driver::call;
using tpcc::driver::database;
using tpcc::driver::statement;
using tpcc::driver::statement_result;
using tpcc::driver::then;
using tpcc::driver::value;

constexpr statement drop_notifications{"ex_drop_n", "DROP TABLE IF EXISTS shoal_ex_notifications"};
constexpr statement drop_users{"ex_drop_u", "DROP TABLE IF EXISTS shoal_ex_users"};
constexpr statement create_users{
    "ex_create_u",
    "CREATE TABLE shoal_ex_users (id bigint PRIMARY KEY, wants_mail boolean NOT NULL, "
    "email text NOT NULL)"};
constexpr statement create_notifications{
    "ex_create_n",
    "CREATE TABLE shoal_ex_notifications (user_id bigint NOT NULL, email text NOT NULL)"};
constexpr statement fill_users{
    "ex_fill_u",
    "INSERT INTO shoal_ex_users SELECT g, g % 3 <> 0, 'user' || g || '@example.com' "
    "FROM generate_series(1, $1::bigint) g"};
constexpr statement select_prefs{
    "ex_prefs",
    "SELECT id, wants_mail::int, email FROM shoal_ex_users WHERE id = ANY($1::bigint[])"};
constexpr statement insert_notifications{"ex_notify",
                                         "INSERT INTO shoal_ex_notifications (user_id, email) "
                                         "SELECT * FROM unnest($1::bigint[], $2::text[])"};
constexpr statement count_notifications{
    "ex_count", "SELECT count(*), count(DISTINCT user_id) FROM shoal_ex_notifications"};

struct prefs {
  bool wants_mail = false;
  std::string email;
};
struct notification {
  std::int64_t user = 0;
  std::string email;
};

// Runs one statement in a transaction of its own (one round trip); throws on failure.
task<statement_result> run(database& db, const statement& s, std::vector<value> params) {
  tpcc::driver::lease session = co_await db.acquire();
  if (!session) throw std::runtime_error(session.status().message);
  std::vector<call> calls(1);
  calls[0].stmt = &s;
  calls[0].params = std::move(params);
  (void)co_await session->begin();
  std::vector<statement_result> r = co_await session->execute_batch(calls, then::commit);
  for (const statement_result& each : r) {
    if (!each.ok()) throw std::runtime_error(std::string(s.name) + ": " + each.status.message);
  }
  co_return std::move(r.front());
}

std::string array_literal(std::span<const std::int64_t> ids) {
  std::string out = "{";
  for (std::size_t i = 0; i < ids.size(); ++i)
    out.append(i ? "," : "").append(std::to_string(ids[i]));
  return out.append("}");
}

std::string quoted_array(std::span<const notification> items) {
  std::string out = "{";
  for (std::size_t i = 0; i < items.size(); ++i) {
    out.append(i ? ",\"" : "\"");
    for (char c : items[i].email) {
      if (c == '"' || c == '\\') out.push_back('\\');
      out.push_back(c);
    }
    out.push_back('"');
  }
  return out.append("}");
}

std::vector<value> no_params() { return {}; }
prefs prefs_of(const tpcc::driver::row& r) { return prefs{r.int_at(1) != 0, r.text_at(2)}; }
notification make_notification(std::int64_t user, std::string email) {
  return notification{user, std::move(email)};
}
tpcc::driver::database_options options_for(std::string dsn) {
  return {.target = std::move(dsn), .connections = 4};
}

std::vector<value> one(value v) {
  std::vector<value> out;
  out.push_back(std::move(v));
  return out;
}

// Bulk step 1: one SELECT for the whole batch; a user missing from the table fails alone.
task<std::vector<shoal::item_result<prefs>>> fetch_prefs(database& db,
                                                         std::span<std::int64_t> ids) {
  statement_result r = co_await run(db, select_prefs, one(array_literal(ids)));
  std::unordered_map<std::int64_t, prefs> found;
  for (const auto& row : r.rows) found[row.int_at(0)] = prefs_of(row);
  std::vector<shoal::item_result<prefs>> out;
  out.reserve(ids.size());
  for (std::int64_t id : ids) {
    auto it = found.find(id);
    if (it == found.end()) {
      out.push_back(shoal::item_result<prefs>::failure(
          std::make_exception_ptr(std::runtime_error("no user " + std::to_string(id)))));
    } else {
      out.emplace_back(it->second);
    }
  }
  co_return out;
}

std::vector<value> notification_params(std::span<notification> items) {
  std::vector<std::int64_t> users;
  for (const notification& n : items) users.push_back(n.user);
  std::vector<value> params;
  params.emplace_back(array_literal(users));
  params.emplace_back(quoted_array(items));
  return params;
}

// Bulk step 2: one multi-row INSERT for the whole batch.
task<std::vector<bool>> send_notifications(database& db, std::span<notification> items) {
  statement_result r = co_await run(db, insert_notifications, notification_params(items));
  co_return std::vector<bool>(items.size(), r.affected == static_cast<std::int64_t>(items.size()));
}

using prefs_batcher = shoal::batcher<std::int64_t, shoal::item_result<prefs>>;
using send_batcher = shoal::batcher<notification, bool>;

// The per-user code: reads like the unbatched loop body.
task<bool> notify_user(prefs_batcher& get_prefs, send_batcher& send, std::int64_t user) {
  std::optional<prefs> p = co_await get_prefs(user);
  if (!p || !p->wants_mail) co_return false;
  std::optional<bool> sent = co_await send(make_notification(user, p->email));
  co_return sent.value_or(false);
}

std::vector<task<bool>> every_user(prefs_batcher& get_prefs, send_batcher& send, std::int64_t n) {
  std::vector<task<bool>> out;
  for (std::int64_t u = 1; u <= n; ++u) out.push_back(notify_user(get_prefs, send, u));
  return out;
}

shoal::batch_options<std::int64_t> prefs_policy() {
  return {.max_size = 5000, .max_wait = {}, .flush_if = {}};
}
shoal::batch_options<notification> send_policy() {
  return {.max_size = 5000, .max_wait = {}, .flush_if = {}};
}

task<int> notify_all(database& db, std::int64_t users) {
  (void)co_await run(db, drop_notifications, no_params());
  (void)co_await run(db, drop_users, no_params());
  (void)co_await run(db, create_users, no_params());
  (void)co_await run(db, create_notifications, no_params());
  (void)co_await run(db, fill_users, one(users));
  prefs_batcher get_prefs([&db](std::span<std::int64_t> ids) { return fetch_prefs(db, ids); },
                          prefs_policy());
  send_batcher send([&db](std::span<notification> n) { return send_notifications(db, n); },
                    send_policy());
  const auto started = std::chrono::steady_clock::now();
  std::vector<bool> sent = co_await shoal::when_all(every_user(get_prefs, send, users));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::int64_t notified = 0;
  for (bool s : sent) notified += s ? 1 : 0;
  statement_result counted = co_await run(db, count_notifications, no_params());
  const std::int64_t rows = counted.rows.at(0).int_at(0);
  const std::int64_t distinct = counted.rows.at(0).int_at(1);
  const std::int64_t expected = users - users / 3;
  std::printf("%lld users in %.3f s: %llu SELECTs, %llu INSERTs; %lld notified (%lld rows)\n",
              static_cast<long long>(users), seconds,
              static_cast<unsigned long long>(get_prefs.stats().batches),
              static_cast<unsigned long long>(send.stats().batches),
              static_cast<long long>(notified), static_cast<long long>(rows));
  (void)co_await run(db, drop_notifications, no_params());
  (void)co_await run(db, drop_users, no_params());
  const bool ok = notified == expected && rows == expected && distinct == expected &&
                  get_prefs.stats().batches < static_cast<std::uint64_t>(users);
  std::puts(ok ? "all checks passed" : "CHECK FAILED");
  co_return ok ? 0 : 1;
}

task<int> run_example(shoal::thread_pool& pool, std::string dsn, std::int64_t users) {
  co_await pool.schedule();
  tpcc::driver::open_result opened =
      co_await tpcc::driver::open_database(options_for(std::move(dsn)));
  if (auto* failed = std::get_if<tpcc::driver::outcome>(&opened)) {
    std::fprintf(stderr, "10_batched_notifications: cannot connect: %s\n", failed->message.c_str());
    co_return 1;
  }
  std::unique_ptr<database> db = std::move(std::get<std::unique_ptr<database>>(opened));
  int status = 1;
  try {
    status = co_await notify_all(*db, users);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "10_batched_notifications: %s\n", e.what());
  }
  co_await db->close();
  co_return status;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dsn;
  std::int64_t users = 1000;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--users" && i + 1 < argc) {
      char* end = nullptr;
      users = std::strtoll(argv[++i], &end, 10);
      if (*end != '\0' || users <= 0) {
        std::fprintf(stderr, "10_batched_notifications: bad value '%s' for --users\n", argv[i]);
        return 2;
      }
    } else if (arg.starts_with("--")) {
      std::fprintf(stderr, "usage: 10_batched_notifications DSN [--users N]\n");
      return 2;
    } else {
      dsn = arg;
    }
  }
  if (dsn.empty() && std::getenv("SHOAL_EXAMPLE_PG") != nullptr)
    dsn = std::getenv("SHOAL_EXAMPLE_PG");
  if (dsn.empty()) {
    std::puts(
        "10_batched_notifications: skipped (no PostgreSQL DSN: pass one, or set SHOAL_EXAMPLE_PG)");
    return 0;
  }
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  const int status = shoal::sync_wait(run_example(pool, std::move(dsn), users));
  shoal::sync_wait(pool.stop());
  return status;
}
