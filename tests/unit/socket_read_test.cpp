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

void adopt_on(manual_scheduler& sched, std::optional<stream_socket>& s, drained_pair& pair) {
  auto adopted = sched.spawn(adopt_into(s, pair));
  sched.run_all();
  ASSERT_TRUE(adopted.done());
}

TEST(SocketRead, AReadThatFilledItsBufferReadsTheRestWithoutAnEdge) {
  manual_scheduler sched;
  drained_pair pair;
  std::optional<stream_socket> s;
  adopt_on(sched, s, pair);
  pair.send("abcdefghij");
  auto first = sched.spawn(read_text(*s, 4));
  sched.run_all();
  ASSERT_TRUE(first.done());
  EXPECT_EQ(first.get(), "abcd");
  auto second = sched.spawn(read_text(*s, 4));
  sched.run_all();  // no poll: the rest is read by recv at once
  ASSERT_TRUE(second.done()) << "a full buffer may have left data behind: read it without an edge";
  EXPECT_EQ(second.get(), "efgh");
  auto third = sched.spawn(read_text(*s, 4));
  sched.run_all();
  ASSERT_TRUE(third.done());
  EXPECT_EQ(third.get(), "ij");
}

TEST(SocketRead, AReadAfterADrainingReadWaitsForTheEdgeInsteadOfCallingRecv) {
  manual_scheduler sched;
  drained_pair pair;
  std::optional<stream_socket> s;
  adopt_on(sched, s, pair);
  pair.send("ab");
  auto first = sched.spawn(read_text(*s, 8));
  sched.run_all();
  ASSERT_TRUE(first.done());
  EXPECT_EQ(first.get(), "ab");  // fewer than asked: drained
  pair.send("c");
  sched.poll_io();  // the edge of "c" comes while nobody waits: remembered
  auto second = sched.spawn(read_text(*s, 8));
  sched.run_all();
  ASSERT_TRUE(second.done()) << "a remembered edge is consumed without suspending";
  EXPECT_EQ(second.get(), "c");
  pair.send("d");
  auto third = sched.spawn(read_text(*s, 8));
  sched.run_all();
  EXPECT_FALSE(third.done()) << "called recv although the socket was drained and no edge came";
  sched.poll_io();
  ASSERT_TRUE(third.done());
  EXPECT_EQ(third.get(), "d");
}

TEST(SocketRead, ReadsAfterEndOfStreamKeepReturningZeroAtOnce) {
  manual_scheduler sched;
  drained_pair pair;
  std::optional<stream_socket> s;
  adopt_on(sched, s, pair);
  pair.send("x");
  pair.end();
  sched.poll_io();  // the edge is remembered before anyone reads
  for (const char* expected : {"x", "", "", ""}) {
    auto r = sched.spawn(read_text(*s, 8));
    sched.run_all();
    ASSERT_TRUE(r.done()) << "after '" << expected << "'";
    EXPECT_EQ(r.get(), expected);
  }
}

TEST(SocketRead, EndOfStreamReportedWithTheLastDataIsSeenByTheNextRead) {
  manual_scheduler sched;
  drained_pair pair;
  std::optional<stream_socket> s;
  adopt_on(sched, s, pair);
  pair.send("ab");
  auto first = sched.spawn(read_text(*s, 8));
  sched.run_all();
  ASSERT_EQ(first.get(), "ab");  // drained
  auto waiting = sched.spawn(read_text(*s, 8));
  sched.run_all();
  ASSERT_FALSE(waiting.done());
  pair.send("cd");
  pair.end();
  sched.poll_io();  // one event for both: it wakes the read, which takes the data only
  ASSERT_TRUE(waiting.done());
  EXPECT_EQ(waiting.get(), "cd");
  auto last = sched.spawn(read_text(*s, 8));
  sched.run_all();  // no edge will come for the end any more: it must read at once
  ASSERT_TRUE(last.done()) << "waited for an edge after the hang-up was already reported";
  EXPECT_EQ(last.get(), "");
}

TEST(SocketRead, AStopReachesAReadWaitingAfterADrainingReadAndLosesNoData) {
  manual_scheduler sched;
  drained_pair pair;
  std::optional<stream_socket> s;
  adopt_on(sched, s, pair);
  pair.send("ab");
  sched.poll_io();
  auto first = sched.spawn(read_text(*s, 8));
  sched.run_all();
  ASSERT_EQ(first.get(), "ab");
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
  auto after = sched.spawn(read_text(*s, 8));
  sched.run_all();
  sched.poll_io();
  ASSERT_TRUE(after.done());
  EXPECT_EQ(after.get(), "z");
}

}  // namespace
