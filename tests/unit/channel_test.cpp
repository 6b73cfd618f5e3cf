// SPDX-License-Identifier: Apache-2.0
// channel<T> on the manual scheduler: FIFO through the buffer and past it, rendezvous, close,
// every order of a stop with a hand-over, and no copies of what it carries.
#include "shoal/channel.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <stop_token>
#include <vector>

#include "shoal/stop.hpp"
#include "support/counted.hpp"
#include "support/manual_scheduler.hpp"

namespace {

using shoal::task;
using shoal::testing::manual_scheduler;

task<bool> send(shoal::channel<int>& ch, int v) { co_return co_await ch.send(v); }
task<std::optional<int>> receive(shoal::channel<int>& ch) { co_return co_await ch.receive(); }

// Receives until the channel is closed and drained.
task<std::vector<int>> drain(shoal::channel<int>& ch) {
  std::vector<int> got;
  while (std::optional<int> v = co_await ch.receive()) got.push_back(*v);
  co_return got;
}

TEST(Channel, ValuesComeOutInTheOrderTheyWentIn) {
  manual_scheduler sched;
  shoal::channel<int> ch(4);
  for (int i = 1; i <= 4; ++i) EXPECT_TRUE(ch.try_send(i));
  EXPECT_FALSE(ch.try_send(5)) << "full";
  EXPECT_EQ(ch.size(), 4u);
  ch.close();
  auto d = sched.spawn(drain(ch));
  sched.run_all();
  ASSERT_TRUE(d.done());
  EXPECT_EQ(d.get(), (std::vector<int>{1, 2, 3, 4}));
}

TEST(Channel, SendersWaitWhileFullAndKeepTheirOrderBehindTheBuffer) {
  manual_scheduler sched;
  shoal::channel<int> ch(1);
  auto s1 = sched.spawn(send(ch, 1));
  auto s2 = sched.spawn(send(ch, 2));
  auto s3 = sched.spawn(send(ch, 3));
  sched.run_all();
  EXPECT_TRUE(s1.done());
  EXPECT_FALSE(s2.done() || s3.done());
  EXPECT_EQ(ch.try_receive(), 1);  // frees the slot: the oldest sender's value moves in
  EXPECT_EQ(ch.size(), 1u);
  EXPECT_FALSE(s2.done()) << "woken, not run inline";
  sched.run_all();
  ASSERT_TRUE(s2.done());
  EXPECT_TRUE(s2.get());
  EXPECT_EQ(ch.try_receive(), 2);
  EXPECT_EQ(ch.try_receive(), 3);
  EXPECT_EQ(ch.try_receive(), std::nullopt);
  sched.run_all();
  EXPECT_TRUE(s3.done() && s3.get());
}

TEST(Channel, QueuedSendersMoveInOnlyOnceTheBufferIsAtMostHalfFull) {
  manual_scheduler sched;
  shoal::channel<int> ch(4);
  for (int i = 1; i <= 4; ++i) EXPECT_TRUE(ch.try_send(i));
  auto s5 = sched.spawn(send(ch, 5));
  auto s6 = sched.spawn(send(ch, 6));
  sched.run_all();
  EXPECT_FALSE(s5.done() || s6.done());
  EXPECT_EQ(ch.try_receive(), 1);
  EXPECT_EQ(ch.size(), 3u) << "more than half full: the senders still wait";
  EXPECT_FALSE(ch.try_send(7)) << "a slot is free, but senders wait before it";
  sched.run_all();
  EXPECT_FALSE(s5.done());
  EXPECT_EQ(ch.try_receive(), 2);  // half full: both queued values move in, in order
  EXPECT_EQ(ch.size(), 4u);
  sched.run_all();
  ASSERT_TRUE(s5.done() && s6.done());
  EXPECT_TRUE(s5.get());
  EXPECT_TRUE(s6.get());
  for (const int want : {3, 4, 5, 6}) EXPECT_EQ(ch.try_receive(), want);
  EXPECT_EQ(ch.try_receive(), std::nullopt);
}

TEST(Channel, AWaitingReceiverIsHandedTheValueDirectly) {
  manual_scheduler sched;
  shoal::channel<int> ch(2);
  auto r1 = sched.spawn(receive(ch));
  auto r2 = sched.spawn(receive(ch));
  sched.run_all();
  EXPECT_TRUE(ch.try_send(7));
  EXPECT_TRUE(ch.try_send(8));
  EXPECT_EQ(ch.size(), 0u) << "nothing went through the buffer";
  sched.run_all();
  EXPECT_EQ(r1.get(), 7);
  EXPECT_EQ(r2.get(), 8);
}

TEST(Channel, ARendezvousSendCompletesOnlyWhenAReceiverTakesTheValue) {
  manual_scheduler sched;
  shoal::channel<int> ch(0);
  EXPECT_FALSE(ch.try_send(1)) << "no receiver waiting";
  auto s = sched.spawn(send(ch, 5));
  sched.run_all();
  EXPECT_FALSE(s.done());
  EXPECT_EQ(ch.size(), 0u);
  auto r = sched.spawn(receive(ch));
  sched.run_all();
  ASSERT_TRUE(s.done() && r.done());
  EXPECT_TRUE(s.get());
  EXPECT_EQ(r.get(), 5);
}

TEST(Channel, CloseWakesWaitingReceiversWithNothing) {
  manual_scheduler sched;
  shoal::channel<int> ch(1);
  auto r = sched.spawn(receive(ch));
  sched.run_all();
  ch.close();
  EXPECT_EQ(sched.ready_count(), 1u);
  sched.run_all();
  ASSERT_TRUE(r.done());
  EXPECT_EQ(r.get(), std::nullopt);
}

TEST(Channel, CloseWakesWaitingSendersWithFalseAndKeepsWhatIsBuffered) {
  manual_scheduler sched;
  shoal::channel<int> ch(1);
  auto s1 = sched.spawn(send(ch, 1));
  auto s2 = sched.spawn(send(ch, 2));
  sched.run_all();
  ch.close();
  sched.run_all();
  ASSERT_TRUE(s1.done() && s2.done());
  EXPECT_TRUE(s1.get());
  EXPECT_FALSE(s2.get()) << "not sent";
  EXPECT_TRUE(ch.is_closed());
  EXPECT_FALSE(ch.try_send(3));
  auto late = sched.spawn(send(ch, 4));
  auto d = sched.spawn(drain(ch));
  sched.run_all();
  EXPECT_FALSE(late.get());
  EXPECT_EQ(d.get(), (std::vector<int>{1}));
}

TEST(Channel, StopBeforeAnOperationGivesNothingEvenWhenItCouldComplete) {
  manual_scheduler sched;
  shoal::channel<int> ch(1);
  ASSERT_TRUE(ch.try_send(1));
  std::stop_source source;
  source.request_stop();
  auto r = sched.spawn(shoal::with_stop_token(source.get_token(), receive(ch)));
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), send(ch, 2)));
  sched.run_all();
  EXPECT_EQ(r.get(), std::nullopt);
  EXPECT_FALSE(s.get());
  EXPECT_EQ(ch.try_receive(), 1) << "left in the buffer";
}

TEST(Channel, StopWhileWaitingToSendReturnsFalseAndTheValueIsNotDelivered) {
  manual_scheduler sched;
  shoal::channel<int> ch(0);
  std::stop_source source;
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), send(ch, 1)));
  sched.run_all();
  source.request_stop();
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_FALSE(s.get());
  EXPECT_FALSE(ch.try_send(2)) << "the stopped sender left: no rendezvous partner";
  EXPECT_EQ(ch.try_receive(), std::nullopt);
}

TEST(Channel, AValueHandedToAReceiverBeforeItsStopIsReceived) {
  manual_scheduler sched;
  shoal::channel<int> ch(1);
  std::stop_source source;
  auto r = sched.spawn(shoal::with_stop_token(source.get_token(), receive(ch)));
  sched.run_all();
  EXPECT_TRUE(ch.try_send(9));  // handed over...
  source.request_stop();        // ...then stopped before it runs
  sched.run_all();
  ASSERT_TRUE(r.done());
  EXPECT_EQ(r.get(), 9) << "not lost";
}

TEST(Channel, AReceiverStoppedBeforeTheSendLeavesTheValueToTheNext) {
  manual_scheduler sched;
  shoal::channel<int> ch(1);
  std::stop_source source;
  auto stopped = sched.spawn(shoal::with_stop_token(source.get_token(), receive(ch)));
  auto next = sched.spawn(receive(ch));
  sched.run_all();
  source.request_stop();
  EXPECT_TRUE(ch.try_send(9));
  sched.run_all();
  EXPECT_EQ(stopped.get(), std::nullopt);
  EXPECT_EQ(next.get(), 9);
}

TEST(Channel, ASenderWhoseValueWasTakenBeforeItsStopReportsItDelivered) {
  manual_scheduler sched;
  shoal::channel<int> ch(0);
  std::stop_source source;
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), send(ch, 4)));
  sched.run_all();
  EXPECT_EQ(ch.try_receive(), 4);
  source.request_stop();
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_TRUE(s.get());
}

TEST(Channel, CarriesMoveOnlyValues) {
  manual_scheduler sched;
  shoal::channel<std::unique_ptr<int>> ch(1);
  auto produce = [&]() -> task<bool> { co_return co_await ch.send(std::make_unique<int>(3)); };
  auto consume = [&]() -> task<int> {
    std::optional<std::unique_ptr<int>> v = co_await ch.receive();
    co_return v && *v ? **v : -1;
  };
  auto c = sched.spawn(consume());
  auto p = sched.spawn(produce());
  sched.run_all();
  EXPECT_TRUE(p.get());
  EXPECT_EQ(c.get(), 3);
}

TEST(Channel, MovesValuesAndNeverCopiesThem) {
  using shoal::testing::counted;
  counted::reset();
  {
    manual_scheduler sched;
    shoal::channel<counted> ch(1);
    auto produce = [&]() -> task<> {
      co_await ch.send(counted(1));
      co_await ch.send(counted(2));  // waits: full
    };
    auto consume = [&]() -> task<int> {
      int sum = 0;
      for (int i = 0; i < 2; ++i) sum += (co_await ch.receive())->value;
      co_return sum;
    };
    auto p = sched.spawn(produce());
    auto c = sched.spawn(consume());
    sched.run_all();
    EXPECT_TRUE(p.done());
    EXPECT_EQ(c.get(), 3);
  }
  EXPECT_EQ(counted::copies, 0);
  EXPECT_EQ(counted::alive, 0);
}

}  // namespace
