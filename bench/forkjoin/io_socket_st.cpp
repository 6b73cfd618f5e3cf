// SPDX-License-Identifier: Apache-2.0
// bench/forkjoin/io_socket_st.cpp: the runtime-benchmarks suite's `io_socket_st` program (github
// tzcnt/runtime-benchmarks, cpp/*/io_socket_st.cpp) written with shoal's sockets: two
// single-threaded event loops (here two thread_pools of one worker each: the server's and the
// client's), the client opening C connections over loopback TCP and sending R requests in all
// (a fixed `HEAD / HTTP/1.1` request, each answered by a fixed 12-byte "Hello World!" response
// before the next is sent on that connection), the server answering until each connection ends.
// The served count is checked against R. Timed from the client's start to both sides' end.
// Usage: forkjoin_io_socket_st [connections] [requests]   (the suite's defaults: 20, 100,000)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string_view>
#include <system_error>
#include <vector>

#include "forkjoin/run.hpp"
#include "shoal/socket.hpp"
#include "shoal/when_all.hpp"

namespace {

constexpr std::string_view request =
    "HEAD / HTTP/1.1\r\nHost: host:port\r\nConnection: close\r\n\r\n";
constexpr std::string_view response =
    "HTTP/1.1 200 OK\r\nContent-Length: 12\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
    "Hello World!";

// Answers every request read on `peer` until the client ends the connection; how many.
shoal::task<std::size_t> answer_all(shoal::stream_socket peer) {
  std::array<std::byte, 4096> buffer{};
  std::size_t served = 0;
  try {
    while (co_await peer.read_some(buffer) != 0) {
      co_await peer.write_all(std::as_bytes(std::span(response)));
      ++served;
    }
  } catch (const std::system_error& e) {
    std::printf("ERROR in the server: %s\n", e.what());
  }
  co_return served;
}

// Accepts `connections` connections on the server's worker and serves them all; the total.
shoal::task<std::size_t> serve(shoal::thread_pool& pool, shoal::stream_listener& listener,
                               std::size_t connections) {
  co_await pool.schedule_on(0);
  std::vector<shoal::task<std::size_t>> handlers;
  handlers.reserve(connections);
  for (std::size_t i = 0; i < connections; ++i)
    handlers.push_back(answer_all(co_await listener.accept()));
  std::size_t total = 0;
  for (const std::size_t n : co_await shoal::when_all(std::move(handlers))) total += n;
  co_return total;
}

// One connection's `count` requests, each awaiting its response.
shoal::task<void> ask(std::uint16_t port, std::size_t count) {
  auto s = co_await shoal::stream_socket::connect_tcp("127.0.0.1", port);
  std::array<std::byte, 4096> buffer{};
  for (std::size_t i = 0; i < count; ++i) {
    co_await s.write_all(std::as_bytes(std::span(request)));
    if (co_await s.read_some(buffer) == 0) {
      std::printf("ERROR in the client: the server closed early\n");
      co_return;
    }
  }
  s.shutdown_write();
}

shoal::task<void> client(shoal::thread_pool& pool, std::uint16_t port, std::size_t connections,
                         std::size_t requests) {
  co_await pool.schedule_on(0);
  std::vector<shoal::task<void>> each;
  each.reserve(connections);
  for (std::size_t i = 0; i < connections; ++i) {
    each.push_back(ask(port, requests / connections + (i < requests % connections ? 1 : 0)));
  }
  co_await shoal::when_all(std::move(each));
}

shoal::task<shoal::stream_listener> listen_on(shoal::thread_pool& pool) {
  co_await pool.schedule_on(0);
  co_return shoal::stream_listener::listen_tcp("127.0.0.1", 0);
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t connections = argc > 1 ? static_cast<std::size_t>(std::atoll(argv[1])) : 20;
  const std::size_t requests = argc > 2 ? static_cast<std::size_t>(std::atoll(argv[2])) : 100'000;
  shoal::thread_pool server_pool({.workers = 1});
  shoal::thread_pool client_pool({.workers = 1});
  server_pool.start();
  client_pool.start();
  shoal::stream_listener listener = shoal::sync_wait(listen_on(server_pool));
  const std::uint16_t port = listener.port();
  const auto start = std::chrono::steady_clock::now();
  auto both = [&]() -> shoal::task<std::size_t> {
    auto [served, asked] =
        co_await shoal::when_all(serve(server_pool, listener, connections),
                                 client(client_pool, port, connections, requests));
    static_cast<void>(asked);
    co_return served;
  };
  const std::size_t served = shoal::sync_wait(both());
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  if (served != requests)
    std::printf("ERROR: expected %zu requests but served %zu\n", requests, served);
  shoal::sync_wait([&]() -> shoal::task<void> {  // the listener leaves with its worker's reactor
    co_await server_pool.schedule_on(0);
    listener.close();
  }());
  shoal::sync_wait(client_pool.stop());
  shoal::sync_wait(server_pool.stop());
  std::printf("connections: %zu\nruns:\n  - iteration_count: 1\n    requests: %zu\n", connections,
              requests);
  std::printf("    duration: %lld us\n    requests/sec: %lld\n    max_rss: %ld KiB\n",
              static_cast<long long>(us),
              us > 0 ? static_cast<long long>(requests) * 1'000'000 / us : 0LL,
              forkjoin::peak_rss_kib());
  return 0;
}
