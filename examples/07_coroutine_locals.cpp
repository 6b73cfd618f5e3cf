// 07_coroutine_locals: a request id that follows the request, not the thread.
//
// Shows:
//   - `shoal::coroutine_local<T>` declared once, like a thread_local;
//   - each terminal binds its name for its whole life and a fresh request id per request
//     (`auto scope = co_await key.bind(v)`); the binding ends with the scope;
//   - a plain logging function, called from tasks three awaits deep, reads both with get():
//     nobody passes them down;
//   - the values survive sleeps, during which the pool may move a terminal to the other worker,
//     and never leak to another terminal running on the same thread in between;
//   - outside every binding, get() gives the declaration's fallback.
//
// Exits 0 when every log line carried its own terminal's name and request id, 1 otherwise.
#include <shoal/coroutine_local.hpp>
#include <shoal/sleep.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>
#include <shoal/thread_pool.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <latch>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using namespace std::chrono_literals;

int failures = 0;

void check(bool ok, const char* what) {
  std::printf("  [%s] %s\n", ok ? "ok" : "FAILED", what);
  if (!ok) ++failures;
}

// The two values every log line carries.
const shoal::coroutine_local<std::string> terminal_name{"-"};
const shoal::coroutine_local<std::uint64_t> request_id{0};

constexpr int terminals = 8;
constexpr int requests_per_terminal = 20;
constexpr int items_per_order = 3;
constexpr std::uint64_t ids_per_terminal = 1000;  // terminal k's requests: k*1000+1, k*1000+2, ...

struct log_record {
  std::string terminal;
  std::uint64_t request = 0;
  std::string text;
  std::thread::id thread;
};

// Where log() writes: any thread.
class log_sink {
 public:
  void write(log_record r) {
    const std::lock_guard<std::mutex> hold(mutex_);
    records_.push_back(std::move(r));
  }
  std::vector<log_record> take() {
    const std::lock_guard<std::mutex> hold(mutex_);
    return std::move(records_);
  }

 private:
  std::mutex mutex_;
  std::vector<log_record> records_;
};

log_sink sink;

// A plain function: it takes no request id, yet every line it writes carries one.
void log(std::string text) {
  sink.write({terminal_name.get(), request_id.get(), std::move(text), std::this_thread::get_id()});
}

// Three awaits below the terminal: a "database" read that takes a while.
shoal::task<int> read_stock(int warehouse, int item) {
  co_await shoal::sleep_for(200us);
  log("read_stock w=" + std::to_string(warehouse) + " item=" + std::to_string(item));
  co_return item % 7;
}

shoal::task<int> new_order(int warehouse) {
  log("new_order begin");
  int quantity = 0;
  for (int item = 1; item <= items_per_order; ++item) {
    quantity += co_await read_stock(warehouse, item);
  }
  co_await shoal::sleep_for(300us);  // commit
  log("new_order commit");
  co_return quantity;
}

shoal::task<void> terminal_loop(int k) {
  auto name = co_await terminal_name.bind("terminal-" + std::to_string(k));
  for (int n = 1; n <= requests_per_terminal; ++n) {
    auto id = co_await request_id.bind(static_cast<std::uint64_t>(k) * ids_per_terminal +
                                       static_cast<std::uint64_t>(n));
    log("request start");
    co_await new_order(k);
    co_await shoal::sleep_for(1ms);  // think time: the terminal may wake on the other worker
  }
}

// Detached work: counts down only after the terminal's scopes have ended.
shoal::task<void> terminal(int k, std::latch& finished) {
  co_await terminal_loop(k);
  finished.count_down();  // release: pairs with finished.wait() in main
}

// Checks the records of one terminal: its name and own ids on every line, requests in order,
// each with all of its lines. Returns how many times a request moved to another thread.
int check_terminal(int k, const std::vector<log_record>& lines) {
  const std::string name = "terminal-" + std::to_string(k);
  const std::size_t lines_per_request = 3 + items_per_order;
  bool own = lines.size() == requests_per_terminal * lines_per_request;
  int moves = 0;
  for (std::size_t i = 0; i < lines.size() && own; ++i) {
    const std::uint64_t expected = static_cast<std::uint64_t>(k) * ids_per_terminal + 1 +
                                   static_cast<std::uint64_t>(i / lines_per_request);
    own = lines[i].terminal == name && lines[i].request == expected;
    if (i % lines_per_request != 0 && lines[i].thread != lines[i - 1].thread) ++moves;
  }
  if (!own)
    std::printf("  %s: a line with another terminal's values, or lines missing\n", name.c_str());
  failures += own ? 0 : 1;
  return moves;
}

}  // namespace

int main() {
  std::printf("07_coroutine_locals\n");
  log("from main, outside any coroutine");
  std::latch finished(terminals);
  {
    shoal::thread_pool pool({.workers = 2});
    pool.start();
    for (int k = 1; k <= terminals; ++k) pool.spawn(terminal(k, finished));
    finished.wait();
    shoal::sync_wait(pool.stop());
  }

  std::vector<log_record> records = sink.take();
  check(!records.empty() && records.front().terminal == "-" && records.front().request == 0,
        "outside every binding, get() gives the fallbacks ('-', 0)");
  std::map<std::string, std::vector<log_record>> by_terminal;
  std::set<std::thread::id> threads;
  for (std::size_t i = 1; i < records.size(); ++i) {
    threads.insert(records[i].thread);
    by_terminal[records[i].terminal].push_back(records[i]);
  }
  const int before = failures;
  int moves = 0;
  for (int k = 1; k <= terminals; ++k) {
    moves += check_terminal(k, by_terminal["terminal-" + std::to_string(k)]);
  }
  check(failures == before && by_terminal.size() == terminals,
        "every log line carries its own terminal's name and current request id");
  std::printf("  %zu lines from %zu worker thread(s); a request changed thread %d time(s)\n",
              records.size() - 1, threads.size(), moves);

  if (failures != 0) {
    std::printf("07_coroutine_locals: %d check(s) FAILED\n", failures);
    return 1;
  }
  std::printf("07_coroutine_locals: all checks passed\n");
  return 0;
}
