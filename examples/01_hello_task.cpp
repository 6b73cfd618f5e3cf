// 01_hello_task: shoal::task<T> and shoal::sync_wait, with no threads at all.
//
// Shows:
//   - a task is lazy: creating it runs nothing; awaiting it runs it, on the awaiting thread;
//   - tasks await tasks and get their values (T, T&, void);
//   - an exception thrown in a task comes out of the co_await that awaited it, and out of
//     sync_wait when nobody inside caught it;
//   - sync_wait runs a task from main() and returns its value;
//   - awaiting a child task in a loop recycles its frame instead of calling the system allocator.
//
// Exits 0 when every one of those happened as described, 1 (naming what did not) otherwise.
#include <shoal/frame_allocator.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace {

int failures = 0;

void check(bool ok, const char* what) {
  std::printf("  [%s] %s\n", ok ? "ok" : "FAILED", what);
  if (!ok) ++failures;
}

int bodies_run = 0;

shoal::task<int> answer() {
  ++bodies_run;
  co_return 42;
}

shoal::task<int> add(int a, int b) { co_return a + b; }

// A task awaiting two tasks: values flow back through co_await.
shoal::task<int> sum_of_answers() {
  const int a = co_await answer();
  const int b = co_await answer();
  co_return co_await add(a, b);
}

shoal::task<void> fail(const std::string& why) {
  throw std::runtime_error(why);
  co_return;
}

// Catches what its child threw, like a function call would.
shoal::task<std::string> recover() {
  try {
    co_await fail("the child failed");
  } catch (const std::runtime_error& e) {
    co_return std::string("caught: ") + e.what();
  }
  co_return "not caught";
}

// task<T&>: a reference into something that outlives the task.
shoal::task<std::string&> pick(std::string& a, std::string& b, bool first) {
  co_return first ? a : b;
}

shoal::task<int> count_awaits(int n) {
  int total = 0;
  for (int i = 0; i < n; ++i) total += co_await add(i, 1) - i;
  co_return total;
}

void laziness() {
  bodies_run = 0;
  shoal::task<int> t = answer();
  check(bodies_run == 0, "creating a task runs nothing");
  check(shoal::sync_wait(std::move(t)) == 42 && bodies_run == 1, "sync_wait runs it: 42");
}

void values() {
  check(shoal::sync_wait(sum_of_answers()) == 84, "a task awaiting tasks: 42 + 42 = 84");
  std::string left = "left";
  std::string right = "right";
  std::string& chosen = shoal::sync_wait(pick(left, right, false));
  chosen += "!";
  check(right == "right!", "task<std::string&> returns a reference, not a copy");
}

void exceptions() {
  check(shoal::sync_wait(recover()) == "caught: the child failed",
        "an exception reaches the co_await of the parent");
  bool thrown = false;
  try {
    shoal::sync_wait(fail("nobody caught it"));
  } catch (const std::runtime_error& e) {
    thrown = std::string(e.what()) == "nobody caught it";
  }
  check(thrown, "an uncaught exception comes out of sync_wait");
}

void frame_recycling() {
  constexpr int awaits = 10'000;
  const shoal::frame_allocator_stats before = shoal::this_thread_frame_stats();
  check(shoal::sync_wait(count_awaits(awaits)) == awaits, "10,000 awaits of a child task");
  const shoal::frame_allocator_stats after = shoal::this_thread_frame_stats();
  const auto frames = after.allocations - before.allocations;
  const auto system = after.system_allocations - before.system_allocations;
  std::printf("  frames allocated: %llu, of which from the system allocator: %llu\n",
              static_cast<unsigned long long>(frames), static_cast<unsigned long long>(system));
  if (shoal::frame_recycling_enabled()) {
    check(system <= 8, "frames are recycled: a handful of system allocations, not 10,000");
  } else {
    std::printf(
        "  (sanitizer build: frame recycling is off, every frame is a system allocation)\n");
  }
}

}  // namespace

int main() {
  std::printf("01_hello_task\n");
  laziness();
  values();
  exceptions();
  frame_recycling();
  if (failures != 0) {
    std::printf("01_hello_task: %d check(s) FAILED\n", failures);
    return 1;
  }
  std::printf("01_hello_task: all checks passed\n");
  return 0;
}
