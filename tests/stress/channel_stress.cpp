// SPDX-License-Identifier: Apache-2.0
// shoal::channel on a real two-worker pool (run under TSan): its fast paths (a send that finds
// room, a receive that finds a value: no wait queue) racing with waiters, close() and stops, and
// waiters resumed near their waker (unbound chains) or on their home worker (bound ones). Every
// accepted value is received exactly once, nothing else is, and no wake-up is lost (every chain
// ends).
#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <latch>
#include <optional>
#include <stop_token>
#include <vector>

#include "shoal/channel.hpp"
#include "shoal/stop.hpp"
#include "support/running_pool.hpp"

namespace {

using shoal::task;
using shoal::testing::running_pool;

// Even chains bound to a worker (they resume there), odd ones unbound (near their waker).
void spawn_mixed(shoal::thread_pool& pool, std::size_t i, task<> t) {
  if (i % 2 == 0) {
    pool.spawn_on(i / 2 % pool.size(), std::move(t));
  } else {
    pool.spawn(std::move(t));
  }
}

// What each id went through: sends that returned true, receives that returned it.
struct ledger {
  explicit ledger(std::size_t ids) : delivered(ids), received(ids) {}
  std::vector<std::atomic<int>> delivered;
  std::vector<std::atomic<int>> received;

  // Every delivered id received once, no other id received; returns how many were delivered.
  std::size_t check() const {
    std::size_t sent = 0;
    for (std::size_t id = 0; id < delivered.size(); ++id) {
      EXPECT_EQ(received[id].load(), delivered[id].load()) << "id " << id;
      EXPECT_LE(delivered[id].load(), 1) << "id " << id;
      sent += static_cast<std::size_t>(delivered[id].load());
    }
    return sent;
  }
};

task<> receive_all(shoal::channel<std::size_t>& ch, ledger& book, std::latch& done) {
  while (std::optional<std::size_t> id = co_await ch.receive()) {
    book.received[*id].fetch_add(1, std::memory_order_relaxed);
  }
  done.count_down();
}

// Sends ids p * count .. p * count + count - 1 until one is refused (closed or stopped), noting
// each delivered one in `book` and the refusal in `refused`.
task<> send_until_refused(shoal::channel<std::size_t>& ch, ledger& book, std::size_t p,
                          std::size_t count, std::atomic<std::size_t>& refused, std::latch& done) {
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t id = p * count + k;
    const bool sent = co_await ch.send(id);
    if (!sent) {
      refused.fetch_add(1, std::memory_order_relaxed);
      break;  // every later send would be refused too
    }
    book.delivered[id].fetch_add(1, std::memory_order_relaxed);
  }
  done.count_down();
}

TEST(ChannelStress, ManyProducersAndConsumersOnATinyBufferDeliverEveryValueOnce) {
  constexpr std::size_t sides = 4;
  constexpr std::size_t per_producer = 5000;
  shoal::channel<std::size_t> ch(2);  // full and empty all the time: waiters and fast paths mix
  ledger book(sides * per_producer);
  std::atomic<std::size_t> producers_left{sides};
  std::latch done(2 * sides);
  auto producer = [&](std::size_t p) -> task<> {
    for (std::size_t k = 0; k < per_producer; ++k) {
      const std::size_t id = p * per_producer + k;
      if (co_await ch.send(id)) book.delivered[id].fetch_add(1, std::memory_order_relaxed);
    }
    // acq_rel: the last producer to finish closes the channel.
    if (producers_left.fetch_sub(1, std::memory_order_acq_rel) == 1) ch.close();
    done.count_down();
  };
  {
    running_pool p(2);
    for (std::size_t i = 0; i < sides; ++i) spawn_mixed(p.pool, i, producer(i));
    for (std::size_t i = 0; i < sides; ++i) spawn_mixed(p.pool, i + 1, receive_all(ch, book, done));
    done.wait();
  }
  EXPECT_EQ(book.check(), sides * per_producer) << "nothing refused: the channel stayed open";
  EXPECT_EQ(ch.size(), 0u);
}

TEST(ChannelStress, ACloseRacingFastSendsAndReceivesLosesNoAcceptedValue) {
  constexpr std::size_t producers = 4;
  constexpr std::size_t per_producer = 20000;  // more than are received before the close
  constexpr std::size_t close_after = 3000;
  shoal::channel<std::size_t> ch(8);
  ledger book(producers * per_producer);
  std::atomic<std::size_t> refused{0};
  std::latch done(producers + 1);
  // Closes the channel from a worker after `close_after` values, while senders are mid-send
  // (fewer than one producer's share can be accepted by then: each producer meets the close),
  // then drains what was accepted.
  auto closer = [&]() -> task<> {
    for (std::size_t n = 0; n < close_after; ++n) {
      const std::optional<std::size_t> id = co_await ch.receive();
      book.received[id.value()].fetch_add(1, std::memory_order_relaxed);
    }
    ch.close();
    co_await receive_all(ch, book, done);
  };
  {
    running_pool p(2);
    for (std::size_t i = 0; i < producers; ++i) {
      spawn_mixed(p.pool, i, send_until_refused(ch, book, i, per_producer, refused, done));
    }
    spawn_mixed(p.pool, producers, closer());
    done.wait();
  }
  const std::size_t sent = book.check();
  EXPECT_GE(sent, close_after);
  EXPECT_EQ(refused.load(), producers) << "every producer met the close";
  EXPECT_FALSE(ch.try_send(0)) << "closed";
  EXPECT_EQ(ch.size(), 0u) << "the closer drained what was accepted";
}

TEST(ChannelStress, SendersStoppedWhileTheBufferIsFullDeliverNothing) {
  constexpr std::size_t capacity = 3;
  constexpr std::size_t senders = 16;
  shoal::channel<std::size_t> ch(capacity);
  std::vector<std::stop_source> stops(senders);
  std::vector<std::atomic<int>> outcome(senders);  // 0: running, 1: delivered, 2: not
  std::latch done(senders);
  auto sender = [&](std::size_t i) -> task<> {
    const bool sent = co_await ch.send(i);
    outcome[i].store(sent ? 1 : 2, std::memory_order_release);  // read after done.wait()
    done.count_down();
  };
  {
    running_pool p(2);
    for (std::size_t i = 0; i < senders; ++i) {
      spawn_mixed(p.pool, i, shoal::with_stop_token(stops[i].get_token(), sender(i)));
    }
    // No receiver: `capacity` sends complete, the rest wait (or have not started) until stopped.
    ASSERT_TRUE(shoal::testing::eventually([&] { return ch.size() == capacity; }));
    for (std::stop_source& s : stops) s.request_stop();
    done.wait();
  }
  std::size_t delivered = 0;
  std::vector<bool> buffered(senders, false);
  while (std::optional<std::size_t> id = ch.try_receive()) buffered[*id] = true;
  for (std::size_t i = 0; i < senders; ++i) {
    const int o = outcome[i].load(std::memory_order_acquire);
    EXPECT_EQ(o == 1, buffered[i]) << "sender " << i;
    delivered += o == 1 ? 1 : 0;
  }
  EXPECT_EQ(delivered, capacity);
}

// A value's producer in its high bits, its rank in that producer's sequence in the low ones.
constexpr std::size_t rank_bits = 32;
constexpr std::size_t rank_mask = (std::size_t{1} << rank_bits) - 1;

// Receives until closed and drained, checking that each producer's values come in the order it
// sent them (FIFO seen from one receiver), and counting them.
task<> receive_in_order(shoal::channel<std::size_t>& ch, std::size_t producers,
                        std::atomic<std::size_t>& received, std::atomic<int>& out_of_order,
                        std::latch& done) {
  std::vector<std::size_t> next(producers, 0);
  while (std::optional<std::size_t> v = co_await ch.receive()) {
    const std::size_t p = *v >> rank_bits;
    const std::size_t rank = *v & rank_mask;
    if (rank < next[p]) out_of_order.fetch_add(1, std::memory_order_relaxed);
    next[p] = rank + 1;
    received.fetch_add(1, std::memory_order_relaxed);
  }
  done.count_down();
}

// Senders queue behind a ring above half full and are admitted in batches (hysteresis): every
// value arrives once, each producer's in its order, and no wake-up is lost (every chain ends).
TEST(ChannelStress, QueuedSendersAdmittedAtHalfFullKeepEachProducersOrder) {
  constexpr std::size_t producers = 3;
  constexpr std::size_t consumers = 3;
  constexpr std::size_t per_producer = 20000;
  shoal::channel<std::size_t> ch(8);
  std::atomic<std::size_t> received{0};
  std::atomic<int> out_of_order{0};
  std::atomic<std::size_t> producers_left{producers};
  std::latch done(producers + consumers);
  auto producer = [&](std::size_t p) -> task<> {
    for (std::size_t k = 0; k < per_producer; ++k) {
      const bool sent = co_await ch.send((p << rank_bits) | k);
      EXPECT_TRUE(sent);
    }
    // acq_rel: the last producer to finish closes the channel.
    if (producers_left.fetch_sub(1, std::memory_order_acq_rel) == 1) ch.close();
    done.count_down();
  };
  {
    running_pool p(2);
    for (std::size_t i = 0; i < producers; ++i) spawn_mixed(p.pool, i, producer(i));
    for (std::size_t i = 0; i < consumers; ++i) {
      spawn_mixed(p.pool, i + 1, receive_in_order(ch, producers, received, out_of_order, done));
    }
    done.wait();
  }
  EXPECT_EQ(received.load(), producers * per_producer);
  EXPECT_EQ(out_of_order.load(), 0);
}

// close() from a receiver while senders and other receivers run their fast paths on both sides
// of the ring: what was accepted is received once, the rest refused, every chain ends.
TEST(ChannelStress, ACloseFromOneReceiverRacingBothSidesLosesNoAcceptedValue) {
  constexpr std::size_t sides = 4;
  constexpr std::size_t per_producer = 20000;  // more than is sent before the close
  constexpr std::size_t close_after = 5000;
  shoal::channel<std::size_t> ch(4);
  ledger book(sides * per_producer);
  std::atomic<std::size_t> taken{0};
  std::atomic<std::size_t> refused{0};
  std::latch done(2 * sides);
  auto consumer = [&]() -> task<> {
    while (std::optional<std::size_t> id = co_await ch.receive()) {
      book.received[*id].fetch_add(1, std::memory_order_relaxed);
      // acq_rel: exactly one receiver sees the count reach close_after.
      if (taken.fetch_add(1, std::memory_order_acq_rel) + 1 == close_after) ch.close();
    }
    done.count_down();
  };
  {
    running_pool p(2);
    for (std::size_t i = 0; i < sides; ++i) {
      spawn_mixed(p.pool, i, send_until_refused(ch, book, i, per_producer, refused, done));
    }
    for (std::size_t i = 0; i < sides; ++i) spawn_mixed(p.pool, i + 1, consumer());
    done.wait();
  }
  EXPECT_GE(book.check(), close_after);
  EXPECT_EQ(refused.load(), sides) << "every producer met the close";
  EXPECT_EQ(ch.size(), 0u) << "the receivers drained what was accepted";
}

// Receivers stopped while values are being handed to them (the stop racing the sender's
// hand-out under the receivers' lock, and the wake-up): a value is received by at most one
// receiver, and every delivered value by exactly one (the unstopped ones drain the rest).
TEST(ChannelStress, ReceiversStoppedWhileValuesArriveLoseNoValue) {
  constexpr std::size_t stoppable = 6;
  constexpr std::size_t receivers = stoppable + 2;
  constexpr std::size_t producers = 2;
  constexpr std::size_t per_producer = 10000;
  shoal::channel<std::size_t> ch(2);
  ledger book(producers * per_producer);
  std::vector<std::stop_source> stops(stoppable);
  std::atomic<std::size_t> delivered{0};
  std::atomic<std::size_t> producers_left{producers};
  std::latch done(producers + receivers);
  auto producer = [&](std::size_t p) -> task<> {
    for (std::size_t k = 0; k < per_producer; ++k) {
      const std::size_t id = p * per_producer + k;
      const bool sent = co_await ch.send(id);
      EXPECT_TRUE(sent);
      book.delivered[id].fetch_add(1, std::memory_order_relaxed);
      delivered.fetch_add(1, std::memory_order_release);  // read by the stopping thread
    }
    // acq_rel: the last producer to finish closes the channel.
    if (producers_left.fetch_sub(1, std::memory_order_acq_rel) == 1) ch.close();
    done.count_down();
  };
  {
    running_pool p(2);
    for (std::size_t i = 0; i < receivers; ++i) {
      task<> r = receive_all(ch, book, done);
      if (i < stoppable) r = shoal::with_stop_token(stops[i].get_token(), std::move(r));
      spawn_mixed(p.pool, i, std::move(r));
    }
    for (std::size_t i = 0; i < producers; ++i) spawn_mixed(p.pool, i + 1, producer(i));
    // One stop per sixth of the run, from this thread, while values flow.
    for (std::size_t i = 0; i < stoppable; ++i) {
      const std::size_t mark = (i + 1) * producers * per_producer / (stoppable + 1);
      // acquire: pairs with the producers' release increments (a progress mark, no ordering).
      EXPECT_TRUE(shoal::testing::eventually([&] {
        return delivered.load(std::memory_order_acquire) >= mark;
      })) << "a wake-up was lost: "
          << delivered.load() << " delivered";
      stops[i].request_stop();
    }
    done.wait();
  }
  EXPECT_EQ(book.check(), producers * per_producer);
}

// Senders stopped while queued (some behind a ring above half full, waiting for the hysteresis
// to admit them) while a receiver admits others: a send that returned true was received once,
// one that returned false was not received at all.
TEST(ChannelStress, SendersStoppedWhileQueuedDeliverExactlyWhatTheyReport) {
  constexpr std::size_t senders = 8;
  constexpr std::size_t per_sender = 5000;
  shoal::channel<std::size_t> ch(4);
  ledger book(senders * per_sender);
  std::vector<std::stop_source> stops(senders);
  std::atomic<std::size_t> received{0};
  std::atomic<std::size_t> refused{0};  // each stopped sender once
  std::latch senders_done(senders);
  std::latch receiver_done(1);
  auto receiver = [&]() -> task<> {
    while (std::optional<std::size_t> id = co_await ch.receive()) {
      book.received[*id].fetch_add(1, std::memory_order_relaxed);
      received.fetch_add(1, std::memory_order_release);  // read by the stopping thread
    }
    receiver_done.count_down();
  };
  {
    running_pool p(2);
    for (std::size_t i = 0; i < senders; ++i) {
      spawn_mixed(
          p.pool, i,
          shoal::with_stop_token(stops[i].get_token(), send_until_refused(ch, book, i, per_sender,
                                                                          refused, senders_done)));
    }
    spawn_mixed(p.pool, senders, receiver());
    // Sender i stopped once (i + 1) fifths of a sender's share were received: reachable, since
    // senders i..7 are not stopped yet and will send theirs.
    for (std::size_t i = 0; i < senders; ++i) {
      const std::size_t mark = (i + 1) * per_sender / 5;
      // acquire: pairs with the receiver's release increments (a progress mark, no ordering).
      EXPECT_TRUE(shoal::testing::eventually([&] {
        return received.load(std::memory_order_acquire) >= mark;
      })) << "a wake-up was lost: "
          << received.load() << " received";
      stops[i].request_stop();
    }
    senders_done.wait();
    ch.close();
    receiver_done.wait();
  }
  book.check();
  EXPECT_LE(refused.load(), senders) << "a refused sender sends no more";
}

}  // namespace
