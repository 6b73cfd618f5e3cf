// SPDX-License-Identifier: Apache-2.0
// The reactor under load on a real two-worker pool (run under TSan): many connections whose
// coroutines migrate between workers, sockets created on one worker and closed on another,
// and reads cancelled while data races in.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <random>
#include <span>
#include <stop_token>
#include <system_error>
#include <thread>
#include <vector>

#include "shoal/fd_watch.hpp"
#include "shoal/sleep.hpp"
#include "shoal/socket.hpp"
#include "shoal/stop.hpp"
#include "shoal/timeout.hpp"
#include "shoal/when_all.hpp"
#include "support/running_pool.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::stream_listener;
using shoal::stream_socket;
using shoal::task;
using shoal::testing::running_pool;

task<bool> read_exactly(stream_socket& s, std::span<std::byte> buffer) {
  while (!buffer.empty()) {
    const std::size_t n = co_await s.read_some(buffer);
    if (n == 0) co_return false;
    buffer = buffer.subspan(n);
  }
  co_return true;
}

// Echoes one connection until end of stream; hops to the pool between reads so it migrates.
task<void> echo(shoal::thread_pool& pool, stream_socket peer) {
  std::array<std::byte, 64> buf{};
  for (;;) {
    co_await pool.schedule();
    std::size_t n = 0;
    try {
      n = co_await peer.read_some(buf);
    } catch (const std::system_error&) {
      co_return;  // reset by a cancelled client
    }
    if (n == 0) co_return;
    try {
      co_await peer.write_all(std::span(buf).first(n));
    } catch (const std::system_error&) {
      co_return;
    }
  }
}

task<void> serve(shoal::thread_pool& pool, stream_listener& listener, int connections) {
  std::vector<task<void>> echoes;
  echoes.reserve(static_cast<std::size_t>(connections));
  for (int i = 0; i < connections; ++i) echoes.push_back(echo(pool, co_await listener.accept()));
  co_await shoal::when_all(std::move(echoes));
}

// One client: `rounds` request/answer pairs, each checked byte for byte.
task<bool> client(shoal::thread_pool& pool, std::uint16_t port, int id, int rounds) {
  co_await pool.schedule();
  auto sock = co_await stream_socket::connect_tcp("127.0.0.1", port);
  bool ok = true;
  for (int r = 0; r < rounds && ok; ++r) {
    std::array<std::byte, 32> request{};
    for (std::size_t k = 0; k < request.size(); ++k) {
      request[k] = static_cast<std::byte>((id * 31 + r * 7 + static_cast<int>(k)) & 0xff);
    }
    co_await sock.write_all(request);
    co_await pool.schedule();  // maybe another worker: the watch stays on its first reactor
    std::array<std::byte, 32> reply{};
    ok = co_await read_exactly(sock, reply) && reply == request;
  }
  co_return ok;  // the socket closes here, possibly on another worker than it was made on
}

TEST(IoStress, ManyConnectionsMigratingBetweenWorkersEchoEveryByte) {
  running_pool p(2);
  constexpr int connections = 64;
  constexpr int rounds = 100;
  auto run = [&]() -> task<int> {
    co_await p.pool.schedule_on(0);
    auto listener = stream_listener::listen_tcp("127.0.0.1", 0);
    std::vector<task<bool>> clients;
    clients.reserve(connections);
    for (int i = 0; i < connections; ++i) {
      clients.push_back(client(p.pool, listener.port(), i, rounds));
    }
    auto all_clients = [&]() -> task<std::vector<bool>> {
      co_return co_await shoal::when_all(std::move(clients));
    };
    auto [served, results] =
        co_await shoal::when_all(serve(p.pool, listener, connections), all_clients());
    int good = 0;
    for (const bool ok : results) good += ok ? 1 : 0;
    co_return good;
  };
  EXPECT_EQ(shoal::sync_wait(run()), connections);
}

TEST(IoStress, ReadsCancelledWhileDataArrivesEndExactlyOnce) {
  running_pool p(2);
  constexpr int attempts = 300;
  std::atomic<int> completed{0};
  std::atomic<int> cancelled{0};
  auto run = [&]() -> task<void> {
    co_await p.pool.schedule_on(0);
    auto listener = stream_listener::listen_tcp("127.0.0.1", 0);
    auto sock = co_await stream_socket::connect_tcp("127.0.0.1", listener.port());
    auto peer = co_await listener.accept();
    std::mt19937 rng(7);
    for (int i = 0; i < attempts; ++i) {
      // The peer writes from worker 1 after a random delay while we wait with a timeout of
      // about the same length: sometimes the data wins, sometimes the stop.
      const auto delay = std::chrono::microseconds(rng() % 400);
      auto writer = [&]() -> task<void> {
        co_await p.pool.schedule_on(1);
        co_await shoal::sleep_for(delay);
        const std::array<std::byte, 1> one{std::byte{1}};
        co_await peer.write_all(one);
      };
      auto reader = [&]() -> task<void> {
        std::array<std::byte, 1> got{};
        bool timed_out = false;
        try {
          co_await shoal::with_timeout(200us, sock.read_some(got));
          completed.fetch_add(1);
        } catch (const std::system_error& e) {
          if (e.code() != std::errc::operation_canceled) throw;
          timed_out = true;
        }
        if (timed_out) {
          cancelled.fetch_add(1);
          co_await sock.read_some(got);  // the byte still arrives, exactly once
        }
      };
      co_await shoal::when_all(writer(), reader());
    }
  };
  shoal::sync_wait(run());
  EXPECT_EQ(completed.load() + cancelled.load(), attempts);
}

// One unbound coroutine's I/O wait and the stop source a stopper thread aims at it.
struct stop_target {
  std::mutex mutex;
  std::stop_source source;  // guarded by mutex
  std::atomic<unsigned> generation{0};
};

// Waits `rounds` times on a descriptor that never becomes readable, each time under a fresh
// stop source published to `target`; only a stop ends each wait. Hops between workers.
task<int> wait_until_stopped(shoal::thread_pool& pool, stop_target& target, int rounds) {
  co_await pool.schedule();
  std::array<int, 2> fds{};
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds.data()) != 0) {
    throw std::system_error(errno, std::generic_category(), "socketpair");
  }
  int cancelled = 0;
  {
    shoal::fd_watch watch(fds[0]);
    for (int r = 0; r < rounds; ++r) {
      std::stop_source source;
      {
        const std::lock_guard lock(target.mutex);
        target.source = source;
      }
      target.generation.fetch_add(1, std::memory_order_release);
      const bool ready = co_await shoal::with_stop_token(source.get_token(), watch.readable());
      if (!ready) ++cancelled;
      co_await pool.schedule();  // unbound: the next wait may start on the other worker
    }
  }
  ::close(fds[0]);
  ::close(fds[1]);
  co_return cancelled;
}

// Finding 1 of issue 20: a stop landing between the moment an unbound I/O waiter is parked in
// its slot and the moment its stop callback is registered used to post the coroutine from
// inside await_suspend; another worker could then resume it and reset the stop callback while
// it was still being constructed (TSan: data race on the callback's optional; ASan: use after
// free of the frame). The stopper thread fires at random short delays after each wait starts,
// so that many stops land in that window.
TEST(IoStress, StopsRacingTheSuspensionOfUnboundIoWaitsResumeEachOnceOnItsOwnTerms) {
  running_pool p(2);
  constexpr int waiters = 4;
  constexpr int rounds = 3000;
  std::array<stop_target, waiters> targets;
  std::atomic<bool> done{false};
  std::jthread stopper([&] {
    std::mt19937 rng(11);
    std::array<unsigned, waiters> seen{};
    while (!done.load(std::memory_order_acquire)) {
      for (std::size_t k = 0; k < waiters; ++k) {
        const unsigned g = targets[k].generation.load(std::memory_order_acquire);
        if (g == seen[k]) continue;
        seen[k] = g;
        std::stop_source source;
        {
          const std::lock_guard lock(targets[k].mutex);
          source = targets[k].source;
        }
        for (unsigned spin = rng() % 2000; spin > 0; --spin) {
          std::atomic_signal_fence(std::memory_order_seq_cst);  // a delay the compiler keeps
        }
        source.request_stop();
      }
    }
  });
  auto all = [&]() -> task<std::vector<int>> {
    std::vector<task<int>> chains;
    chains.reserve(targets.size());
    for (auto& target : targets) chains.push_back(wait_until_stopped(p.pool, target, rounds));
    co_return co_await shoal::when_all(std::move(chains));
  };
  const std::vector<int> cancelled = shoal::sync_wait(all());
  done.store(true, std::memory_order_release);
  for (const int c : cancelled) EXPECT_EQ(c, rounds);
}

// Sends `chunks` chunks of 1..48 bytes from worker 1 and ends the stream at once, so the last
// data and the end often arrive in one event; the sum of the bytes sent.
task<std::size_t> send_chunks_then_end(shoal::thread_pool& pool, stream_socket& s, int chunks,
                                       unsigned seed) {
  co_await pool.schedule_on(1);
  std::mt19937 rng(seed);
  std::array<std::byte, 48> chunk{};
  std::size_t sum = 0;
  for (int c = 0; c < chunks; ++c) {
    const std::size_t size = 1 + rng() % chunk.size();
    for (std::size_t k = 0; k < size; ++k) {
      chunk[k] = static_cast<std::byte>(rng() & 0xff);
      sum += std::to_integer<std::size_t>(chunk[k]);
    }
    co_await s.write_all(std::span(chunk).first(size));
    if (c % 8 == 0) co_await pool.schedule();  // let the reader drain between bursts
  }
  s.shutdown_write();
  co_return sum;
}

// Reads until end of stream with a buffer larger than any chunk (so reads often drain the
// socket and the next one waits for an edge), hopping between workers; the sum of the bytes.
task<std::size_t> sum_until_end(shoal::thread_pool& pool, stream_socket& s) {
  std::array<std::byte, 64> buf{};
  std::size_t sum = 0;
  for (;;) {
    co_await pool.schedule();
    const std::size_t n = co_await s.read_some(buf);
    if (n == 0) co_return sum;
    for (const std::byte b : std::span(buf).first(n)) sum += std::to_integer<std::size_t>(b);
  }
}

TEST(IoStress, DrainedReadsOnMigratingWorkersSeeEveryByteAndTheEndThatFollowsIt) {
  running_pool p(2);
  constexpr int connections = 48;
  constexpr int chunks = 40;
  auto one = [&](stream_listener& listener, int id) -> task<bool> {
    auto sock = co_await stream_socket::connect_tcp("127.0.0.1", listener.port());
    auto peer = co_await listener.accept();
    auto [sent, read] = co_await shoal::when_all(
        send_chunks_then_end(p.pool, sock, chunks, static_cast<unsigned>(id)),
        sum_until_end(p.pool, peer));
    co_return sent == read;
  };
  auto run = [&]() -> task<int> {
    co_await p.pool.schedule_on(0);
    auto listener = stream_listener::listen_tcp("127.0.0.1", 0);
    int good = 0;
    for (int i = 0; i < connections; ++i) good += co_await one(listener, i) ? 1 : 0;
    co_return good;
  };
  EXPECT_EQ(shoal::sync_wait(run()), connections);
}

}  // namespace
