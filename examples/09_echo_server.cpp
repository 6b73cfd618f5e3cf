// SPDX-License-Identifier: Apache-2.0
// 09_echo_server: a TCP echo server and 100 clients on one two-worker pool, no thread per
// connection. Each client sends a line, reads the echo and checks it; one extra client waits for
// an answer that never comes and gives up after 50 ms (with_timeout cancels its read).
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <span>
#include <string>
#include <system_error>
#include <vector>

#include "shoal/socket.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/thread_pool.hpp"
#include "shoal/timeout.hpp"
#include "shoal/when_all.hpp"
#include "support/check.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::stream_listener;
using shoal::stream_socket;
using shoal::task;

constexpr int clients = 100;

// Serves one connection: echoes what it reads until the client closes.
task<void> echo(stream_socket peer) {
  std::array<char, 256> buf{};
  for (;;) {
    const std::size_t n = co_await peer.read_some(std::as_writable_bytes(std::span(buf)));
    if (n == 0) co_return;
    co_await peer.write_all(std::as_bytes(std::span(buf.data(), n)));
  }
}

task<void> serve(stream_listener& listener, int connections) {
  std::vector<task<void>> sessions;
  sessions.reserve(static_cast<std::size_t>(connections));
  for (int i = 0; i < connections; ++i) sessions.push_back(echo(co_await listener.accept()));
  co_await shoal::when_all(std::move(sessions));
}

task<bool> client(std::uint16_t port, int id) {
  auto sock = co_await stream_socket::connect_tcp("127.0.0.1", port);
  const std::string line = "hello from client " + std::to_string(id) + "\n";
  co_await sock.write_all(std::as_bytes(std::span(line)));
  std::string got;
  std::array<char, 256> buf{};
  while (got.size() < line.size()) {
    const std::size_t n = co_await sock.read_some(std::as_writable_bytes(std::span(buf)));
    if (n == 0) break;
    got.append(buf.data(), n);
  }
  co_return got == line;
}

// Connects but never sends, so no echo comes: the read must give up at the timeout.
task<bool> impatient_client(std::uint16_t port) {
  auto sock = co_await stream_socket::connect_tcp("127.0.0.1", port);
  std::array<std::byte, 16> buf{};
  try {
    co_await shoal::with_timeout(50ms, sock.read_some(buf));
  } catch (const std::system_error& e) {
    co_return e.code() == std::errc::operation_canceled;
  }
  co_return false;
}

task<void> run(shoal::thread_pool& pool) {
  co_await pool.schedule();
  auto listener = stream_listener::listen_tcp("127.0.0.1", 0);
  std::vector<task<bool>> all;
  all.reserve(clients);
  for (int i = 0; i < clients; ++i) all.push_back(client(listener.port(), i));
  auto clients_done = [&]() -> task<std::vector<bool>> {
    co_return co_await shoal::when_all(std::move(all));
  };
  auto [served, results, gave_up] = co_await shoal::when_all(
      serve(listener, clients + 1), clients_done(), impatient_client(listener.port()));
  examples::check(std::ranges::count(results, true) == clients, "every client got its echo");
  examples::check(gave_up, "the impatient client gave up after 50 ms");
}

}  // namespace

int main() {
  std::printf("09_echo_server\n");
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  shoal::sync_wait(run(pool));
  shoal::sync_wait(pool.stop());
  return examples::finish("09_echo_server");
}
