// SPDX-License-Identifier: Apache-2.0
// shoal::fiber and shoal::await (shoal/fiber.hpp) on the manual scheduler and sync_wait: values,
// the hybrid both ways, exceptions both ways, stop tokens and coroutine-locals, fd readiness and
// channels from a fiber, destruction of a suspended fiber, the stack pool.
#include "shoal/fiber.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <coroutine>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <tuple>
#include <vector>

#include "shoal/async_backtrace.hpp"
#include "shoal/async_event.hpp"
#include "shoal/channel.hpp"
#include "shoal/coroutine_local.hpp"
#include "shoal/fd_watch.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/task_group.hpp"
#include "shoal/when_all.hpp"
#include "shoal/yield.hpp"
#include "support/build_kind.hpp"
#include "support/frame_probe.hpp"
#include "support/manual_scheduler.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using shoal::testing::manual_scheduler;

task<int> twice(int x) {
  co_await shoal::yield();
  co_return 2 * x;
}

task<int> fails_later() {
  co_await shoal::yield();
  throw std::runtime_error("from the task");
}

// A plain function `depth` calls deep that awaits a task at the bottom.
int nested_await(int depth, int x) {
  if (depth == 0) return shoal::await(twice(x));
  return nested_await(depth - 1, x) + 1;
}

TEST(Fiber, RunsAPlainFunctionAndGivesItsValueToTheAwaitingTask) {
  EXPECT_EQ(shoal::sync_wait(shoal::fiber([] { return 41 + 1; })), 42);
  int ran = 0;
  shoal::sync_wait(shoal::fiber([&] { ++ran; }));
  EXPECT_EQ(ran, 1);
}

TEST(Fiber, ReturnsAReferenceWhenTheFunctionDoes) {
  int target = 1;
  auto body = [&]() -> int& { return target; };
  int& got = shoal::sync_wait(shoal::fiber(body));
  EXPECT_EQ(&got, &target);
}

TEST(Fiber, APlainFunctionAtAnyDepthAwaitsATask) {
  EXPECT_EQ(shoal::sync_wait(shoal::fiber([] { return nested_await(0, 5); })), 10);
  EXPECT_EQ(shoal::sync_wait(shoal::fiber([] { return nested_await(64, 5); })), 74);
}

TEST(Fiber, AwaitOfASleepSuspendsOnlyTheFiber) {
  manual_scheduler sched;
  std::vector<std::string> log;
  auto sleeper = sched.spawn(shoal::fiber([&] {
    log.emplace_back("fiber sleeps");
    const bool slept = shoal::await(shoal::sleep_for(10ms));
    log.emplace_back(slept ? "fiber woke" : "fiber cancelled");
  }));
  auto runs = [&]() -> task<> {
    log.emplace_back("task runs");
    co_return;
  };
  auto other = sched.spawn(runs());
  sched.run_all();
  EXPECT_FALSE(sleeper.done());
  EXPECT_TRUE(other.done()) << "the sleeping fiber blocked the executor";
  sched.advance(9ms);
  EXPECT_FALSE(sleeper.done()) << "woke before its deadline";
  sched.advance(1ms);
  ASSERT_TRUE(sleeper.done());
  sleeper.get();
  EXPECT_EQ(log, (std::vector<std::string>{"fiber sleeps", "task runs", "fiber woke"}));
}

TEST(Fiber, AReadyAwaitableCompletesWithoutSuspending) {
  manual_scheduler sched;
  shoal::async_event ready(true);
  auto s = sched.spawn(shoal::fiber([&] { return shoal::await(ready.wait()); }));
  EXPECT_EQ(sched.run_all(), 1U) << "one resumption: the root; the fiber never switched out";
  ASSERT_TRUE(s.done());
  EXPECT_TRUE(s.get());
}

TEST(Fiber, AnExceptionEscapingTheFiberIsRethrownWhereItIsAwaited) {
  auto body = []() -> int { throw std::runtime_error("from the fiber"); };
  try {
    shoal::sync_wait(shoal::fiber(body));
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "from the fiber");
  }
}

TEST(Fiber, AnExceptionFromAnAwaitedTaskIsRethrownInsideTheFiber) {
  auto body = [] {
    try {
      shoal::await(fails_later());
    } catch (const std::runtime_error& e) {
      return std::string("caught: ") + e.what();
    }
    return std::string("not thrown");
  };
  EXPECT_EQ(shoal::sync_wait(shoal::fiber(body)), "caught: from the task");
}

// An awaiter that refuses to suspend by throwing from await_suspend.
struct refusing_awaiter {
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> /*unused*/) const {
    throw std::runtime_error("refused");
  }
  void await_resume() const noexcept {}
};

TEST(Fiber, AnExceptionFromAwaitSuspendIsRethrownInsideTheFiberWhichGoesOn) {
  auto body = [] {
    int after = 0;
    try {
      shoal::await(refusing_awaiter{});
    } catch (const std::runtime_error&) {
      after = shoal::await(twice(21));  // the fiber still works
    }
    return after;
  };
  EXPECT_EQ(shoal::sync_wait(shoal::fiber(body)), 42);
}

// The same path many times over in one process: under ThreadSanitizer, a switch made inside a
// function of its own (entered on the fiber's shadow call stack, left on the driver's) lost a
// frame of the driver's shadow stack at every suspension, and TSan crashed on the third fiber.
TEST(Fiber, ManyFibersThroughTheExceptionPathKeepTheSanitizersShadowStacksBalanced) {
  auto body = [] {
    int after = 0;
    try {
      shoal::await(refusing_awaiter{});
    } catch (const std::runtime_error&) {
      after = shoal::await(twice(21));
    }
    return after;
  };
  int sum = 0;
  for (int i = 0; i < 200; ++i) sum += shoal::sync_wait(shoal::fiber(body));
  EXPECT_EQ(sum, 200 * 42);
}

TEST(Fiber, AwaitOutsideAFiberIsALogicError) {
  EXPECT_FALSE(shoal::in_fiber());
  EXPECT_THROW(shoal::await(twice(1)), std::logic_error);
  EXPECT_TRUE(shoal::sync_wait(shoal::fiber([] { return shoal::in_fiber(); })));
}

// shoal::await outside a fiber destroys the awaiter without suspending it: a when_all's join was
// never made (its awaiter makes it in await_suspend) and must not be destroyed either; the
// children's frames go, unstarted, with the awaitable.
TEST(Fiber, AWhenAllAwaitedOutsideAFiberThrowsAndDestroysItsChildrenUnstarted) {
  int destroyed = 0;
  int started = 0;
  auto child = [&started](shoal::testing::frame_probe /*probe*/) -> shoal::task<int> {
    ++started;
    co_return 1;
  };
  EXPECT_THROW(shoal::await(shoal::when_all(child(shoal::testing::frame_probe(destroyed)),
                                            child(shoal::testing::frame_probe(destroyed)))),
               std::logic_error);
  EXPECT_EQ(started, 0);
  EXPECT_EQ(destroyed, 2);
}

// An await that does not suspend after all, having overwritten on the driver's side (between
// the switch out and the switch back in) every register a call may clobber: the vector
// registers, and the general ones its arithmetic uses.
struct clobbering_awaiter {
  bool await_ready() const noexcept { return false; }
  bool await_suspend(std::coroutine_handle<> /*unused*/) const noexcept {
#if defined(__x86_64__)
    asm volatile(
        "pcmpeqd %%xmm0, %%xmm0\n\tmovaps %%xmm0, %%xmm1\n\tmovaps %%xmm0, %%xmm2\n\t"
        "movaps %%xmm0, %%xmm3\n\tmovaps %%xmm0, %%xmm4\n\tmovaps %%xmm0, %%xmm5\n\t"
        "movaps %%xmm0, %%xmm6\n\tmovaps %%xmm0, %%xmm7\n\tmovaps %%xmm0, %%xmm8\n\t"
        "movaps %%xmm0, %%xmm9\n\tmovaps %%xmm0, %%xmm10\n\tmovaps %%xmm0, %%xmm11\n\t"
        "movaps %%xmm0, %%xmm12\n\tmovaps %%xmm0, %%xmm13\n\tmovaps %%xmm0, %%xmm14\n\t"
        "movaps %%xmm0, %%xmm15\n\tmov $-1, %%rcx\n\tmov %%rcx, %%r8\n\tmov %%rcx, %%r9\n\t"
        "mov %%rcx, %%r10\n\tmov %%rcx, %%r11" ::
            : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
              "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "rcx", "r8", "r9", "r10",
              "r11");
#endif
    return false;
  }
  void await_resume() const noexcept {}
};

// Twelve doubles and six integers live across every await; `step` awaits (or not) in between.
template <class Step>
double many_live_values(double seed, Step step) {
  double d[12];
  std::int64_t n[6];
  for (int i = 0; i < 12; ++i) d[i] = seed * (i + 1);
  for (int i = 0; i < 6; ++i) n[i] = static_cast<std::int64_t>(seed) * (i + 3);
  for (int round = 0; round < 4; ++round) {
    step();
    for (int i = 0; i < 12; ++i) d[i] = d[i] * 1.5 + d[(i + 1) % 12];
    for (int i = 0; i < 6; ++i) n[i] = n[i] * 3 + n[(i + 1) % 6];
  }
  double sum = 0;
  for (double x : d) sum += x;
  for (std::int64_t x : n) sum += static_cast<double>(x);
  return sum;
}

TEST(Fiber, ValuesInRegistersSurviveAnAwaitWhoseOtherSideOverwritesThem) {
  volatile double seed = 7.25;  // not a constant: the values are computed at run time
  const double expected = many_live_values(seed, [] {});
  auto body = [&seed] {
    return many_live_values(seed, [] { shoal::await(clobbering_awaiter{}); });
  };
  EXPECT_EQ(shoal::sync_wait(shoal::fiber(body)), expected);
}

TEST(Fiber, TheCallersStopTokenFlowsInAndCancelsWhatTheFiberAwaits) {
  manual_scheduler sched;
  std::stop_source source;
  auto body = [&] {
    EXPECT_EQ(shoal::current_stop_token(), source.get_token());
    const bool slept = shoal::await(shoal::sleep_for(1h));
    return std::make_pair(slept, shoal::stop_requested());
  };
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), shoal::fiber(body)));
  sched.run_all();
  EXPECT_FALSE(s.done());
  source.request_stop();
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), std::make_pair(false, true)) << "the sleep should end cancelled, promptly";
}

inline const shoal::coroutine_local<int> request_id{0};

task<int> read_request_id() {
  co_await shoal::yield();
  co_return request_id.get();
}

TEST(Fiber, CoroutineLocalsFlowIntoTheFiberAndIntoWhatItAwaits) {
  auto body = [] {
    const int seen_in_fiber = request_id.get();
    const int seen_by_task = shoal::await(read_request_id());
    int bound_in_fiber = 0;
    {
      auto scope = shoal::await(request_id.bind(9));
      bound_in_fiber = shoal::await(read_request_id());
    }
    const int after_scope = shoal::await(read_request_id());
    return std::array<int, 4>{seen_in_fiber, seen_by_task, bound_in_fiber, after_scope};
  };
  const auto seen = shoal::sync_wait(shoal::with_local(request_id, 7, shoal::fiber(body)));
  EXPECT_EQ(seen, (std::array<int, 4>{7, 7, 9, 7}));
}

// A connected pair of non-blocking Unix stream sockets, closed at the end of the test.
class socket_pair {
 public:
  socket_pair() {
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds_.data()) != 0) {
      throw std::runtime_error("socketpair failed");
    }
  }
  socket_pair(const socket_pair&) = delete;
  socket_pair& operator=(const socket_pair&) = delete;
  ~socket_pair() {
    ::close(fds_[0]);
    ::close(fds_[1]);
  }
  [[nodiscard]] int a() const { return fds_[0]; }
  void send_to_a(char c) const { ASSERT_EQ(::write(fds_[1], &c, 1), 1); }

 private:
  std::array<int, 2> fds_{};
};

// A blocking-style read through the reactor: what a synchronous library's adapter does.
char read_one_byte(int fd) {
  shoal::fd_watch watch(fd);
  for (;;) {
    char c = 0;
    const ssize_t n = ::read(fd, &c, 1);
    if (n == 1) return c;
    if (n < 0 && errno != EAGAIN) throw std::runtime_error("read failed");
    if (!shoal::await(watch.readable())) throw std::runtime_error("cancelled");
  }
}

TEST(Fiber, AwaitsSocketReadinessThroughTheReactor) {
  manual_scheduler sched;
  socket_pair pair;
  auto s = sched.spawn(shoal::fiber([&] { return read_one_byte(pair.a()); }));
  sched.run_all();
  sched.poll_io();
  EXPECT_FALSE(s.done()) << "woke with nothing to read";
  pair.send_to_a('x');
  sched.poll_io();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), 'x');
}

TEST(Fiber, ExchangesValuesWithATaskOverAChannel) {
  manual_scheduler sched;
  shoal::channel<int> requests(0);
  shoal::channel<int> replies(0);
  auto server = sched.spawn(shoal::fiber([&] {
    while (std::optional<int> r = shoal::await(requests.receive())) {
      shoal::await(replies.send(*r * 10));
    }
  }));
  auto ask = [&]() -> task<int> {
    int sum = 0;
    for (int i = 1; i <= 3; ++i) {
      co_await requests.send(i);
      sum += (co_await replies.receive()).value_or(-1000);
    }
    requests.close();
    co_return sum;
  };
  auto client = sched.spawn(ask());
  sched.run_all();
  ASSERT_TRUE(client.done());
  EXPECT_EQ(client.get(), 60);
  ASSERT_TRUE(server.done());
  server.get();
}

TEST(Fiber, WhenAllHoldsFibersAndTasksTogether) {
  auto both = [&]() -> task<int> {
    auto [a, b, c] = co_await shoal::when_all(shoal::fiber([] { return nested_await(3, 1); }),
                                              twice(4), shoal::fiber([] { return 100; }));
    co_return a + b + c;
  };
  EXPECT_EQ(shoal::sync_wait(both()), 5 + 8 + 100);
}

TEST(Fiber, ATaskGroupHoldsFibers) {
  auto body = [](shoal::task_group<int>& group) -> task<int> {
    for (int i = 1; i <= 3; ++i) group.spawn(shoal::fiber([i] { return nested_await(i, i); }));
    int sum = 0;
    while (auto r = co_await group.next_result()) sum += r->take_value();
    co_return sum;
  };
  EXPECT_EQ(shoal::sync_wait(shoal::with_task_group<int>(body)), (1 + 2) + (2 + 4) + (3 + 6));
}

TEST(Fiber, AFiberAwaitsAnotherFiber) {
  auto outer = [] { return shoal::await(shoal::fiber([] { return nested_await(2, 3); })) + 1; };
  EXPECT_EQ(shoal::sync_wait(shoal::fiber(outer)), 9);
}

task<std::vector<shoal::async_frame>> backtrace_in_task() {
  co_return co_await shoal::async_backtrace_here();
}

task<std::vector<shoal::async_frame>> fiber_under_a_task() {
  co_return co_await shoal::fiber([] { return shoal::await(backtrace_in_task()); });
}

TEST(Fiber, AnAsyncBacktraceFromATaskItAwaitsGoesThroughTheFiberToTheRoot) {
  const std::vector<shoal::async_frame> frames = shoal::sync_wait(fiber_under_a_task());
  std::vector<std::string> names;
  names.reserve(frames.size());
  for (const shoal::async_frame& f : frames) names.push_back(shoal::symbolize(f.resume).function);
  const std::string text = shoal::format_async_backtrace(frames);
  // the task, the fiber's driver, the fiber's task, the task awaiting it, the root
  ASSERT_EQ(names.size(), 5U) << text;
  EXPECT_NE(names[0].find("backtrace_in_task"), std::string::npos) << text;
  EXPECT_NE(names[1].find("run_fiber"), std::string::npos) << text;
  EXPECT_NE(names[2].find("fiber"), std::string::npos) << text;  // demangled or not
  EXPECT_NE(names[3].find("fiber_under_a_task"), std::string::npos) << text;
  EXPECT_NE(names[4].find("run_root"), std::string::npos) << text;
}

// Counts its live instances: destructors that ran when a fiber's stack was unwound.
struct counted {
  explicit counted(int& live) : live_(&live) { ++*live_; }
  counted(const counted&) = delete;
  counted& operator=(const counted&) = delete;
  ~counted() { --*live_; }
  int* live_;
};

TEST(Fiber, DestroyingASuspendedFiberUnwindsItsStackAndReturnsIt) {
  const std::size_t live_before = shoal::fiber_stacks().live;
  int live = 0;
  bool resumed = false;
  {
    manual_scheduler sched;
    auto s = sched.spawn(shoal::fiber([&] {
      counted on_the_stack(live);
      shoal::await(std::suspend_always{});  // nothing will ever resume it
      resumed = true;
    }));
    sched.run_all();
    EXPECT_EQ(live, 1);
    EXPECT_EQ(shoal::fiber_stacks().live, live_before + 1);
    // `s` goes out of scope suspended: its root, the fiber's task and the fiber are destroyed.
  }
  EXPECT_EQ(live, 0) << "the fiber's stack was not unwound";
  EXPECT_FALSE(resumed);
  EXPECT_EQ(shoal::fiber_stacks().live, live_before);
}

// An address on a fiber's stack, as an integer (so that it may outlive the fiber).
[[gnu::noinline]] std::uintptr_t here_on_the_stack() {
  return reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
}

bool within_one_stack(std::uintptr_t a, std::uintptr_t b) {
  return (a > b ? a - b : b - a) < shoal::fiber_default_stack_size;
}

// Issue 27, item 6: what a destroyed suspended fiber awaited may still hold a node on its stack
// (an unstoppable co_await of a future is its own node). Its stack is unwound, then retired:
// never given to another fiber, whose live frames a late completion would otherwise overwrite.
TEST(Fiber, AFiberDestroyedWhileSuspendedGivesItsStackToNoOtherFiber) {
  const std::size_t retired_before = shoal::fiber_stacks().retired;
  std::uintptr_t destroyed = 0;
  {
    manual_scheduler sched;
    auto s = sched.spawn(shoal::fiber([&] {
      destroyed = here_on_the_stack();
      shoal::await(std::suspend_always{});
    }));
    sched.run_all();
  }
  EXPECT_EQ(shoal::fiber_stacks().retired, retired_before + 1);
  for (int i = 0; i < 20; ++i) {  // the thread's cache and the shared pool, in turn
    std::uintptr_t next = 0;
    shoal::sync_wait(shoal::fiber([&] { next = here_on_the_stack(); }));
    EXPECT_FALSE(within_one_stack(destroyed, next))
        << "fiber " << i << " runs on the stack of the destroyed one";
  }
}

TEST(Fiber, StacksArePooledAndReused) {
  shoal::sync_wait(shoal::fiber([] {}));  // warms the pool
  const shoal::fiber_stack_stats before = shoal::fiber_stacks();
  for (int i = 0; i < 10; ++i) shoal::sync_wait(shoal::fiber([i] { return nested_await(4, i); }));
  const shoal::fiber_stack_stats after = shoal::fiber_stacks();
  EXPECT_EQ(after.mapped_total, before.mapped_total) << "a stack was mapped instead of reused";
  EXPECT_EQ(after.reused_total, before.reused_total + 10);
  EXPECT_EQ(after.live, before.live);
}

// 512 nested frames of 1 KiB each, every one kept alive by a volatile read after the call
// returns: the depth reached, 512, when no frame overflowed the stack.
int fill_half_a_mebibyte(int n) {
  std::array<volatile char, 1024> buffer{};
  buffer[static_cast<std::size_t>(n) % buffer.size()] = static_cast<char>(n);
  if (n == 0) return 0;
  const int below = fill_half_a_mebibyte(n - 1);
  return below + 1 + (buffer[static_cast<std::size_t>(n) % buffer.size()] - static_cast<char>(n));
}

TEST(Fiber, StackSizeIsRoundedToPagesAndAFiberCanUseMostOfIt) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  // A size no other test asks for, one byte past a page boundary: a new stack is mapped for it,
  // one page larger than asked, plus its guard page.
  const std::size_t asked = (std::size_t{1} << 20) + 3 * page + 1;
  const std::size_t rounded = (std::size_t{1} << 20) + 4 * page;
  const shoal::fiber_stack_stats before = shoal::fiber_stacks();
  shoal::fiber_stack_stats during;
  const int depth = shoal::sync_wait(shoal::fiber(
      [&] {
        during = shoal::fiber_stacks();
        return fill_half_a_mebibyte(512);  // 512 KiB of the 1 MiB: no overflow
      },
      {.stack_size = asked}));
  EXPECT_EQ(depth, 512);
  EXPECT_EQ(during.mapped_total, before.mapped_total + 1) << "no new stack was mapped";
  EXPECT_EQ(during.mapped_bytes - before.mapped_bytes, rounded + page)
      << "the stack was not rounded up to whole pages (plus the guard page)";
}

using shoal::testing::under_sanitizer;

volatile int never_stop = -1;

[[gnu::noinline]] int recurse_forever(int n) {
  std::array<volatile char, 512> buffer{};
  buffer[0] = static_cast<char>(n);
  if (n == never_stop) return 0;
  return recurse_forever(n + 1) + buffer[0];
}

TEST(FiberDeathTest, AnOverflowHitsTheGuardPageAndTheReportNamesTheFiber) {
  if (under_sanitizer) GTEST_SKIP() << "the sanitizer reports the overflow itself";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto overflow = [] {
    shoal::report_fiber_stack_overflows();
    shoal::sync_wait(shoal::fiber([] { return recurse_forever(0); }, {.name = "deep-recursion"}));
  };
  EXPECT_DEATH(overflow(), "shoal: fiber 'deep-recursion' overflowed its stack of 65536 bytes");
}

}  // namespace
