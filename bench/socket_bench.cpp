// SPDX-License-Identifier: Apache-2.0
// bench/socket_bench.cpp: loopback TCP ping-pong, one client and one server coroutine.
//
// One iteration: the client writes a 64-byte request and reads the 64-byte answer the server
// echoes. Measured on one thread (client and server on the same worker / io_context) and on two
// (client bound to worker 0, server to worker 1; Asio: one io_context per thread). The
// two-thread shoal run is also given with spinning off, since an idle worker's spin competes
// for the core with the peer it waits for on a 2-core machine. Both sides use
// TCP_NODELAY. Baseline: the same program with Asio 1.22 C++20 coroutines (asio::awaitable,
// async_read / async_write with use_awaitable), in the same run.
// Counters: allocs/op after warm-up; items_per_second is requests per second.
#include <benchmark/benchmark.h>

#include <array>
#include <asio.hpp>
#include <cstddef>
#include <span>

#include "shoal/socket.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "shoal/when_all.hpp"
#include "support/alloc_counter.hpp"
#include "support/running.hpp"

namespace {

using shoal::bench::alloc_meter;
using shoal::bench::report_allocs;

constexpr std::size_t message_size = 64;
constexpr int warm_up_rounds = 200;
using message = std::array<std::byte, message_size>;

// --- shoal ---------------------------------------------------------------------------------

shoal::task<void> read_exactly(shoal::stream_socket& s, std::span<std::byte> buffer) {
  while (!buffer.empty()) {
    const std::size_t n = co_await s.read_some(buffer);
    if (n == 0) co_return;
    buffer = buffer.subspan(n);
  }
}

shoal::task<void> shoal_server(shoal::thread_pool& pool, std::size_t worker,
                               shoal::stream_listener& listener) {
  co_await pool.schedule_on(worker);
  shoal::stream_socket peer = co_await listener.accept();
  message buffer{};
  for (;;) {
    const std::size_t n = co_await peer.read_some(buffer);
    if (n == 0) co_return;
    co_await peer.write_all(std::span(buffer).first(n));
  }
}

shoal::task<void> shoal_client(shoal::thread_pool& pool, benchmark::State& state,
                               std::uint16_t port) {
  co_await pool.schedule_on(0);
  auto client = co_await shoal::stream_socket::connect_tcp("127.0.0.1", port);
  message request{};
  message reply{};
  for (int i = 0; i < warm_up_rounds; ++i) {
    co_await client.write_all(request);
    co_await read_exactly(client, reply);
  }
  const alloc_meter allocs;
  for (auto _ : state) {
    co_await client.write_all(request);
    co_await read_exactly(client, reply);
  }
  report_allocs(state, allocs);
  state.SetItemsProcessed(state.iterations());
  client.close();  // the server reads end of stream and returns
}

shoal::task<void> shoal_ping_pong(shoal::thread_pool& pool, benchmark::State& state,
                                  std::size_t server_worker) {
  co_await pool.schedule_on(0);
  auto listener = shoal::stream_listener::listen_tcp("127.0.0.1", 0);
  co_await shoal::when_all(shoal_server(pool, server_worker, listener),
                           shoal_client(pool, state, listener.port()));
}

void ping_pong_shoal(benchmark::State& state) {
  const auto threads = static_cast<std::size_t>(state.range(0));
  shoal::thread_pool pool(
      {.workers = threads, .spin_rounds = static_cast<unsigned>(state.range(1))});
  pool.start();
  shoal::sync_wait(shoal_ping_pong(pool, state, threads - 1));
  shoal::sync_wait(pool.stop());
}
// spin: the pool's spin_rounds (64 is the default; 0 parks in epoll at once when idle).
BENCHMARK(ping_pong_shoal)
    ->ArgNames({"threads", "spin"})
    ->Args({1, 64})
    ->Args({2, 64})
    ->Args({2, 0})
    ->UseRealTime();

// --- Asio ----------------------------------------------------------------------------------

using asio::ip::tcp;

asio::awaitable<void> asio_server(tcp::acceptor& acceptor) {
  tcp::socket peer = co_await acceptor.async_accept(asio::use_awaitable);
  peer.set_option(tcp::no_delay(true));
  message buffer{};
  for (;;) {
    asio::error_code ec;
    const std::size_t n = co_await peer.async_read_some(
        asio::buffer(buffer), asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return;
    co_await asio::async_write(peer, asio::buffer(buffer.data(), n), asio::use_awaitable);
  }
}

asio::awaitable<void> asio_client(benchmark::State& state, std::uint16_t port) {
  tcp::socket client(co_await asio::this_coro::executor);
  co_await client.async_connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port),
                                asio::use_awaitable);
  client.set_option(tcp::no_delay(true));
  message request{};
  message reply{};
  for (int i = 0; i < warm_up_rounds; ++i) {
    co_await asio::async_write(client, asio::buffer(request), asio::use_awaitable);
    co_await asio::async_read(client, asio::buffer(reply), asio::use_awaitable);
  }
  const alloc_meter allocs;
  for (auto _ : state) {
    co_await asio::async_write(client, asio::buffer(request), asio::use_awaitable);
    co_await asio::async_read(client, asio::buffer(reply), asio::use_awaitable);
  }
  report_allocs(state, allocs);
  state.SetItemsProcessed(state.iterations());
  client.close();
}

void ping_pong_asio(benchmark::State& state) {
  const bool two_threads = state.range(0) == 2;
  asio::io_context client_io(1);
  shoal::bench::running_io_context server_thread(1);  // used only with two threads
  asio::io_context& server_io = two_threads ? server_thread.get() : client_io;
  tcp::acceptor acceptor(server_io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  const std::uint16_t port = acceptor.local_endpoint().port();
  asio::co_spawn(server_io, asio_server(acceptor), asio::detached);
  asio::co_spawn(client_io, asio_client(state, port), asio::detached);
  client_io.run();  // with two threads, the server ends on its own once it reads end of stream
}
BENCHMARK(ping_pong_asio)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
