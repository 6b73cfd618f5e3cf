// SPDX-License-Identifier: Apache-2.0
// stream_socket::read_some on the manual scheduler with a real socketpair: a read that drained
// the socket waits for the next edge instead of calling recv, one that filled its buffer (or saw
// end of stream) reads again at once, and a stop still reaches a read waiting on the drained path.
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "shoal/socket.hpp"
#include "shoal/stop.hpp"
#include "support/manual_scheduler.hpp"

namespace {

using shoal::stream_socket;
using shoal::task;
using shoal::testing::manual_scheduler;

// A connected Unix stream pair: `ours` is handed to a stream_socket (which closes it), the other
// end stays a raw descriptor the test writes to.
class drained_pair {
 public:
  drained_pair() {
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds_.data()) != 0) {
      throw std::runtime_error("socketpair failed");
    }
  }
  drained_pair(const drained_pair&) = delete;
  drained_pair& operator=(const drained_pair&) = delete;
  ~drained_pair() {
    if (!adopted_) ::close(fds_[0]);
    ::close(fds_[1]);
  }
  // Our end, once, for a stream_socket to own.
  int adopt() {
    adopted_ = true;
    return fds_[0];
  }
  void send(const std::string& text) const {
    ASSERT_EQ(::write(fds_[1], text.data(), text.size()), static_cast<ssize_t>(text.size()));
  }
  void end() const { ::shutdown(fds_[1], SHUT_WR); }

 private:
  std::array<int, 2> fds_{};
  bool adopted_ = false;
};

// One read_some of at most `room` bytes, as text.
task<std::string> read_text(stream_socket& s, std::size_t room) {
  std::array<char, 64> buf{};
  const std::size_t n = co_await s.read_some(std::as_writable_bytes(std::span(buf).first(room)));
  co_return std::string(buf.data(), n);
}

// Adopts the pair's end on the scheduler (the socket registers with its reactor).
task<void> adopt_into(std::optional<stream_socket>& s, drained_pair& pair) {
  s.emplace(pair.adopt());
  co_return;
}

// A stream_socket on one end of a pair, on a manual scheduler.
class SocketRead : public ::testing::Test {
 protected:
  SocketRead() {
    auto adopted = sched.spawn(adopt_into(s, pair));
    sched.run_all();
    EXPECT_TRUE(adopted.done());
  }
  // One read of at most `room` bytes started and run until nothing is ready: its text, or
  // nullopt while it waits (then kept, still waiting, until the end of the test).
  std::optional<std::string> read_now(std::size_t room) {
    auto r = sched.spawn(read_text(*s, room));
    sched.run_all();
    if (r.done()) return r.get();
    still_waiting.push_back(std::move(r));
    return std::nullopt;
  }

  manual_scheduler sched;
  drained_pair pair;
  std::optional<stream_socket> s;
  std::vector<shoal::testing::spawned<std::string>> still_waiting;
};

TEST_F(SocketRead, AReadThatFilledItsBufferReadsTheRestWithoutAnEdge) {
  pair.send("abcdefghij");
  EXPECT_EQ(read_now(4), "abcd");
  // No poll: a full buffer may have left data behind, read by recv at once.
  EXPECT_EQ(read_now(4), "efgh");
  EXPECT_EQ(read_now(4), "ij");
}

TEST_F(SocketRead, AReadAfterADrainingReadWaitsForTheEdgeInsteadOfCallingRecv) {
  pair.send("ab");
  EXPECT_EQ(read_now(8), "ab");  // fewer than asked: drained
  pair.send("c");
  sched.poll_io();  // the edge of "c" comes while nobody waits: remembered
  EXPECT_EQ(read_now(8), "c") << "a remembered edge is consumed without suspending";
  pair.send("d");
  auto third = sched.spawn(read_text(*s, 8));
  sched.run_all();
  EXPECT_FALSE(third.done()) << "called recv although the socket was drained and no edge came";
  sched.poll_io();
  ASSERT_TRUE(third.done());
  EXPECT_EQ(third.get(), "d");
}

TEST_F(SocketRead, ReadsAfterEndOfStreamKeepReturningZeroAtOnce) {
  pair.send("x");
  pair.end();
  sched.poll_io();  // the edge is remembered before anyone reads
  EXPECT_EQ(read_now(8), "x");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(read_now(8), "") << "read " << i << " after the end";
}

TEST_F(SocketRead, EndOfStreamReportedWithTheLastDataIsSeenByTheNextRead) {
  pair.send("ab");
  EXPECT_EQ(read_now(8), "ab");  // drained
  auto waiting = sched.spawn(read_text(*s, 8));
  sched.run_all();
  ASSERT_FALSE(waiting.done());
  pair.send("cd");
  pair.end();
  sched.poll_io();  // one event for both: it wakes the read, which takes the data only
  ASSERT_TRUE(waiting.done());
  EXPECT_EQ(waiting.get(), "cd");
  // No edge will come for the end any more: the next read must not wait for one.
  EXPECT_EQ(read_now(8), "");
}

TEST_F(SocketRead, AStopReachesAReadWaitingAfterADrainingReadAndLosesNoData) {
  pair.send("ab");
  sched.poll_io();
  EXPECT_EQ(read_now(8), "ab");
  std::stop_source source;
  auto pending = sched.spawn(shoal::with_stop_token(source.get_token(), read_text(*s, 8)));
  sched.run_all();
  ASSERT_FALSE(pending.done());
  source.request_stop();
  sched.run_all();
  ASSERT_TRUE(pending.done());
  try {
    (void)pending.get();
    ADD_FAILURE() << "the read was not cancelled";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), std::errc::operation_canceled);
  }
  pair.send("z");  // arrives after the cancelled wait: the next read must still see it
  EXPECT_EQ(read_now(8), "z");
}

}  // namespace
