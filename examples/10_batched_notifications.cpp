// 10_batched_notifications: the corobatch use case on PostgreSQL, written once per user.
//
// "Notify the users who want it": each user is a coroutine that asks for its preferences and,
// if it wants mail, sends one. Batched, both steps go through a shoal::batcher, so what reaches
// the server is one `SELECT ... WHERE id = ANY($1)` per batch of users and one multi-row INSERT
// (unnest of two arrays) per batch of notifications, not two statements per user. Unbatched,
// the same per-user coroutine calls one single-row SELECT and one single-row INSERT per user:
// the baseline, run against the same server in the same run.
//
// usage: 10_batched_notifications DSN [--users N] [--mode batched|unbatched|both]
//   DSN  a libpq connection string; the program creates (and finally drops) its own tables
//        shoal_ex_users and shoal_ex_notifications there (afresh for each mode). Without a DSN
//        (or with the environment variable SHOAL_EXAMPLE_PG unset) it says so and exits 0.
//   --mode  both (the default) runs batched, then unbatched, and prints the time ratio.
// Prints, per mode, the statements each step took and checks that every user who wants mail
// got exactly one notification (unbatched: one SELECT per user, one INSERT per notification).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <optional>
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
constexpr statement select_one_prefs{
    "ex_prefs_one", "SELECT id, wants_mail::int, email FROM shoal_ex_users WHERE id = $1::bigint"};
constexpr statement insert_one_notification{
    "ex_notify_one",
    "INSERT INTO shoal_ex_notifications (user_id, email) VALUES ($1::bigint, $2::text)"};
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
std::string no_user(std::int64_t id) { return std::string("no user ").append(std::to_string(id)); }
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
          std::make_exception_ptr(std::runtime_error(no_user(id)))));
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

// The unbatched calls: one single-row statement per user, awaited like the batchers (same
// results), counting the statements they send.
task<std::optional<prefs>> fetch_one_prefs(database& db, std::int64_t user) {
  statement_result r = co_await run(db, select_one_prefs, one(user));
  if (r.rows.empty()) throw std::runtime_error(no_user(user));
  co_return prefs_of(r.rows.front());
}

std::vector<value> notification_row(const notification& n) {
  std::vector<value> params;
  params.emplace_back(n.user);
  params.emplace_back(n.email);
  return params;
}

task<std::optional<bool>> send_one(database& db, notification n) {
  statement_result r = co_await run(db, insert_one_notification, notification_row(n));
  co_return r.affected == 1;
}

class direct_prefs {
 public:
  explicit direct_prefs(database& db) : db_(&db) {}
  task<std::optional<prefs>> operator()(std::int64_t user) {
    calls_.fetch_add(1, std::memory_order_relaxed);  // read after when_all joined every user
    return fetch_one_prefs(*db_, user);
  }
  [[nodiscard]] std::uint64_t calls() const { return calls_.load(std::memory_order_relaxed); }

 private:
  database* db_;
  std::atomic<std::uint64_t> calls_{0};
};

class direct_send {
 public:
  explicit direct_send(database& db) : db_(&db) {}
  task<std::optional<bool>> operator()(notification n) {
    calls_.fetch_add(1, std::memory_order_relaxed);  // read after when_all joined every user
    return send_one(*db_, std::move(n));
  }
  [[nodiscard]] std::uint64_t calls() const { return calls_.load(std::memory_order_relaxed); }

 private:
  database* db_;
  std::atomic<std::uint64_t> calls_{0};
};

// The per-user code, the same in both modes: reads like the unbatched loop body.
template <class GetPrefs, class Send>
task<bool> notify_user(GetPrefs& get_prefs, Send& send, std::int64_t user) {
  std::optional<prefs> p = co_await get_prefs(user);
  if (!p || !p->wants_mail) co_return false;
  std::optional<bool> sent = co_await send(make_notification(user, p->email));
  co_return sent.value_or(false);
}

template <class GetPrefs, class Send>
std::vector<task<bool>> every_user(GetPrefs& get_prefs, Send& send, std::int64_t n) {
  std::vector<task<bool>> out;
  out.reserve(static_cast<std::size_t>(n));
  for (std::int64_t u = 1; u <= n; ++u) out.push_back(notify_user(get_prefs, send, u));
  return out;
}

shoal::batch_options<std::int64_t> prefs_policy() {
  return {.max_size = 5000, .max_wait = {}, .flush_if = {}};
}
shoal::batch_options<notification> send_policy() {
  return {.max_size = 5000, .max_wait = {}, .flush_if = {}};
}

// What one mode did: its time, the statements each step sent, what reached the table.
struct mode_result {
  double seconds = 0;
  std::uint64_t selects = 0;
  std::uint64_t inserts = 0;
  std::int64_t notified = 0;
  std::int64_t rows = 0;
  std::int64_t distinct = 0;
};

task<void> drop_tables(database& db) {
  (void)co_await run(db, drop_notifications, no_params());
  (void)co_await run(db, drop_users, no_params());
}

task<void> create_tables(database& db, std::int64_t users) {
  co_await drop_tables(db);
  (void)co_await run(db, create_users, no_params());
  (void)co_await run(db, create_notifications, no_params());
  (void)co_await run(db, fill_users, one(users));
}

template <class GetPrefs, class Send>
task<mode_result> notify_everyone(database& db, GetPrefs& get_prefs, Send& send,
                                  std::int64_t users) {
  const auto started = std::chrono::steady_clock::now();
  std::vector<bool> sent = co_await shoal::when_all(every_user(get_prefs, send, users));
  mode_result out;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  for (bool s : sent) out.notified += s ? 1 : 0;
  statement_result counted = co_await run(db, count_notifications, no_params());
  out.rows = counted.rows.at(0).int_at(0);
  out.distinct = counted.rows.at(0).int_at(1);
  co_return out;
}

task<mode_result> run_batched(database& db, std::int64_t users) {
  co_await create_tables(db, users);
  prefs_batcher get_prefs([&db](std::span<std::int64_t> ids) { return fetch_prefs(db, ids); },
                          prefs_policy());
  send_batcher send([&db](std::span<notification> n) { return send_notifications(db, n); },
                    send_policy());
  mode_result out = co_await notify_everyone(db, get_prefs, send, users);
  out.selects = get_prefs.stats().batches;
  out.inserts = send.stats().batches;
  co_await drop_tables(db);
  co_return out;
}

task<mode_result> run_unbatched(database& db, std::int64_t users) {
  co_await create_tables(db, users);
  direct_prefs get_prefs(db);
  direct_send send(db);
  mode_result out = co_await notify_everyone(db, get_prefs, send, users);
  out.selects = get_prefs.calls();
  out.inserts = send.calls();
  co_await drop_tables(db);
  co_return out;
}

// Prints one mode's line; true when its outcome is right. Batched: fewer SELECTs than users.
// Unbatched: exactly one SELECT per user and one INSERT per notification.
bool report(const char* name, const mode_result& r, std::int64_t users, bool batched) {
  const std::int64_t expected = users - users / 3;
  std::printf("%s: %lld users in %.3f s: %llu SELECTs, %llu INSERTs; %lld notified, %lld rows\n",
              name, static_cast<long long>(users), r.seconds,
              static_cast<unsigned long long>(r.selects),
              static_cast<unsigned long long>(r.inserts), static_cast<long long>(r.notified),
              static_cast<long long>(r.rows));
  const bool delivered = r.notified == expected && r.rows == expected && r.distinct == expected;
  const auto u = static_cast<std::uint64_t>(users);
  const auto e = static_cast<std::uint64_t>(expected);
  const bool statements =
      batched ? (users < 2 || r.selects < u) && r.inserts <= e : r.selects == u && r.inserts == e;
  return delivered && statements;
}

enum class mode : std::uint8_t { batched, unbatched, both };

task<int> run_modes(database& db, std::int64_t users, mode m) {
  bool ok = true;
  double batched_seconds = 0;
  double unbatched_seconds = 0;
  if (m != mode::unbatched) {
    const mode_result r = co_await run_batched(db, users);
    ok = report("batched", r, users, true) && ok;
    batched_seconds = r.seconds;
  }
  if (m != mode::batched) {
    const mode_result r = co_await run_unbatched(db, users);
    ok = report("unbatched", r, users, false) && ok;
    unbatched_seconds = r.seconds;
  }
  if (m == mode::both && batched_seconds > 0) {
    std::printf("unbatched / batched: %.2fx the time\n", unbatched_seconds / batched_seconds);
  }
  std::puts(ok ? "all checks passed" : "CHECK FAILED");
  co_return ok ? 0 : 1;
}

task<int> run_example(shoal::thread_pool& pool, std::string dsn, std::int64_t users, mode m) {
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
    status = co_await run_modes(*db, users, m);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "10_batched_notifications: %s\n", e.what());
  }
  co_await db->close();
  co_return status;
}

struct arguments {
  std::string dsn;
  std::int64_t users = 1000;
  mode m = mode::both;
};

constexpr const char* usage =
    "usage: 10_batched_notifications DSN [--users N] [--mode batched|unbatched|both]\n";

// What parse returns when --help printed the usage: the program exits 0.
constexpr int help_shown = -1;

// 0 when parsed, help_shown, or else the exit status (2, the problem printed).
int parse(int argc, char** argv, arguments& out) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(usage, stdout);
      return help_shown;
    }
    if ((arg == "--users" || arg == "--mode") && i + 1 == argc) {
      std::fprintf(stderr, "10_batched_notifications: %s needs a value\n", argv[i]);
      return 2;
    }
    if (arg == "--users") {
      char* end = nullptr;
      out.users = std::strtoll(argv[++i], &end, 10);
      if (*end == '\0' && out.users > 0) continue;
      std::fprintf(stderr, "10_batched_notifications: bad value '%s' for --users\n", argv[i]);
      return 2;
    }
    if (arg == "--mode") {
      const std::string_view v = argv[++i];
      out.m = v == "batched" ? mode::batched : v == "unbatched" ? mode::unbatched : mode::both;
      if (v == "batched" || v == "unbatched" || v == "both") continue;
      std::fprintf(stderr, "10_batched_notifications: bad value '%s' for --mode\n", argv[i]);
      return 2;
    }
    if (arg.starts_with("--")) {
      std::fprintf(stderr, "10_batched_notifications: unknown flag '%s'\n%s", argv[i], usage);
      return 2;
    }
    out.dsn = arg;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  arguments args;
  if (const int status = parse(argc, argv, args); status != 0) {
    return status == help_shown ? 0 : status;
  }
  if (args.dsn.empty() && std::getenv("SHOAL_EXAMPLE_PG") != nullptr)
    args.dsn = std::getenv("SHOAL_EXAMPLE_PG");
  if (args.dsn.empty()) {
    std::puts(
        "10_batched_notifications: skipped (no PostgreSQL DSN: pass one, or set SHOAL_EXAMPLE_PG)");
    return 0;
  }
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  const int status = shoal::sync_wait(run_example(pool, std::move(args.dsn), args.users, args.m));
  shoal::sync_wait(pool.stop());
  return status;
}
