// SPDX-License-Identifier: Apache-2.0
// fd_watch on the manual scheduler with real descriptors (a socketpair): readiness, the edge
// remembered while nobody waits, and every race of a stop with an I/O wait.
#include "shoal/fd_watch.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <stdexcept>
#include <stop_token>

#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/thread_pool.hpp"
#include "support/manual_scheduler.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using shoal::testing::manual_scheduler;

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
  [[nodiscard]] int b() const { return fds_[1]; }
  void send_to_a(char c) const { ASSERT_EQ(::write(fds_[1], &c, 1), 1); }

 private:
  std::array<int, 2> fds_{};
};

// Reads one byte from `fd`, waiting while there is none; returns it, or -1 when cancelled.
task<int> read_byte(int fd) {
  shoal::fd_watch watch(fd);
  for (;;) {
    char c = 0;
    const ssize_t n = ::read(fd, &c, 1);
    if (n == 1) co_return c;
    if (n < 0 && errno != EAGAIN) throw std::runtime_error("read failed");
    const bool ready = co_await watch.readable();  // not in the if: g++ 12 miscompiles it
    if (!ready) co_return -1;
  }
}

TEST(FdWatch, ReadableWakesWhenDataArrives) {
  manual_scheduler sched;
  socket_pair pair;
  auto s = sched.spawn(read_byte(pair.a()));
  sched.run_all();
  sched.poll_io();
  EXPECT_FALSE(s.done()) << "woke with nothing to read";
  pair.send_to_a('x');
  sched.poll_io();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), 'x');
}

TEST(FdWatch, AnEdgeThatArrivedWhileNobodyWaitedIsRemembered) {
  manual_scheduler sched;
  socket_pair pair;
  auto probe = [&]() -> task<bool> {
    shoal::fd_watch watch(pair.a());
    pair.send_to_a('y');
    sched.io_reactor()->poll_now();  // the edge arrives before anyone waits
    co_return co_await watch.readable();
  };
  auto s = sched.spawn(probe());
  sched.run_all();
  ASSERT_TRUE(s.done()) << "the remembered edge should not suspend";
  EXPECT_TRUE(s.get());
}

TEST(FdWatch, WritableIsReadyOnAFreshSocket) {
  manual_scheduler sched;
  socket_pair pair;
  auto probe = [&]() -> task<bool> {
    shoal::fd_watch watch(pair.a());
    co_return co_await watch.writable();
  };
  auto s = sched.spawn(probe());
  sched.run_all();
  sched.poll_io();
  ASSERT_TRUE(s.done());
  EXPECT_TRUE(s.get());
}

TEST(FdWatch, StopBeforeTheWaitReturnsFalseAtOnce) {
  manual_scheduler sched;
  socket_pair pair;
  std::stop_source source;
  source.request_stop();
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), read_byte(pair.a())));
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), -1);
}

TEST(FdWatch, StopDuringTheWaitWakesItAndLeavesTheDataUnread) {
  manual_scheduler sched;
  socket_pair pair;
  std::stop_source source;
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), read_byte(pair.a())));
  sched.run_all();
  source.request_stop();
  EXPECT_EQ(sched.ready_count(), 1u) << "posted by the stop callback";
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), -1);
  pair.send_to_a('z');
  sched.poll_io();  // the watch is gone: the event must not touch it
  char c = 0;
  EXPECT_EQ(::read(pair.a(), &c, 1), 1);
  EXPECT_EQ(c, 'z');
}

TEST(FdWatch, DataAndStopTogetherResolveToExactlyOneOutcome) {
  for (const bool data_first : {true, false}) {
    manual_scheduler sched;
    socket_pair pair;
    std::stop_source source;
    auto s = sched.spawn(shoal::with_stop_token(source.get_token(), read_byte(pair.a())));
    sched.run_all();
    pair.send_to_a('q');
    if (data_first) sched.io_reactor()->poll_now();  // the edge takes the waiter first
    source.request_stop();
    if (!data_first) sched.io_reactor()->poll_now();  // the stop took it: the edge is stored
    EXPECT_EQ(sched.ready_count(), 1u) << "resumed twice or not at all";
    sched.run_all();
    ASSERT_TRUE(s.done());
    EXPECT_EQ(s.get(), data_first ? 'q' : -1);
  }
}

TEST(FdWatch, StopAfterCompletionChangesNothing) {
  manual_scheduler sched;
  socket_pair pair;
  std::stop_source source;
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), read_byte(pair.a())));
  sched.run_all();
  pair.send_to_a('k');
  sched.poll_io();
  ASSERT_TRUE(s.done());
  source.request_stop();
  EXPECT_EQ(sched.ready_count(), 0u);
  EXPECT_EQ(s.get(), 'k');
}

TEST(FdWatch, TimeoutGivesUp) {
  manual_scheduler sched;
  socket_pair pair;
  auto probe = [&]() -> task<bool> {
    shoal::fd_watch watch(pair.a());
    co_return co_await watch.readable(5ms);
  };
  auto s = sched.spawn(probe());
  sched.run_all();
  sched.advance(5ms);
  ASSERT_TRUE(s.done());
  EXPECT_FALSE(s.get());
}

TEST(FdWatch, TwoWaitersOnOneDirectionIsAnError) {
  manual_scheduler sched;
  socket_pair pair;
  auto probe = [&]() -> task<bool> {
    shoal::fd_watch watch(pair.a());
    std::stop_source first_stop;
    auto first = [&]() -> task<bool> { co_return co_await watch.readable(); };
    auto s1 = sched.spawn(shoal::with_stop_token(first_stop.get_token(), first()));
    sched.run_all();  // nested: the first waiter parks
    bool threw = false;
    try {
      co_await watch.readable();
    } catch (const std::logic_error&) {
      threw = true;
    }
    first_stop.request_stop();
    sched.run_all();
    co_return threw&& s1.done() && !s1.get();
  };
  auto s = sched.spawn(probe());
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_TRUE(s.get());
}

TEST(FdWatch, WatchNeedsAnExecutorWithAReactor) {
  socket_pair pair;
  EXPECT_THROW(shoal::fd_watch(pair.a()), std::logic_error);
}

TEST(FdWatch, WorksOnAThreadPoolAndResumesOnTheBoundWorker) {
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  socket_pair pair;
  auto reader = [&]() -> task<bool> {
    co_await pool.schedule_on(1);
    const auto* home = shoal::executor::current();
    const int c = co_await read_byte(pair.a());
    co_return c == 'p' && shoal::executor::current() == home;
  };
  auto writer = [&]() -> task<void> {
    co_await pool.schedule_on(0);
    co_await shoal::sleep_for(5ms);
    pair.send_to_a('p');
  };
  auto both = [&]() -> task<bool> {
    co_await pool.schedule();
    pool.spawn(writer());
    co_return co_await reader();
  };
  EXPECT_TRUE(shoal::sync_wait(both()));
  shoal::sync_wait(pool.stop());
}

}  // namespace
