// SPDX-License-Identifier: Apache-2.0
// Sockets on a real thread_pool over loopback TCP and Unix sockets: echo, end of stream,
// connection refused, cancellation of a pending read and accept.
#include "shoal/socket.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <system_error>

#include "shoal/sync_wait.hpp"
#include "shoal/thread_pool.hpp"
#include "shoal/timeout.hpp"
#include "support/running_pool.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::stream_listener;
using shoal::stream_socket;
using shoal::task;

std::span<const std::byte> bytes(const std::string& s) { return std::as_bytes(std::span(s)); }

// Reads until end of stream.
task<std::string> read_all(stream_socket& s) {
  std::string out;
  std::array<char, 256> buf{};
  for (;;) {
    const std::size_t n = co_await s.read_some(std::as_writable_bytes(std::span(buf)));
    if (n == 0) co_return out;
    out.append(buf.data(), n);
  }
}

// Echoes everything it reads back, until end of stream.
task<void> echo_one(stream_listener& listener) {
  stream_socket peer = co_await listener.accept();
  std::array<char, 256> buf{};
  for (;;) {
    const std::size_t n = co_await peer.read_some(std::as_writable_bytes(std::span(buf)));
    if (n == 0) break;
    co_await peer.write_all(std::as_bytes(std::span(buf.data(), n)));
  }
  peer.shutdown_write();
}

TEST(Socket, TcpEchoOverLoopback) {
  shoal::testing::running_pool running(2);
  shoal::thread_pool& pool = running.pool;
  auto run = [&]() -> task<std::string> {
    co_await pool.schedule();
    auto listener = stream_listener::listen_tcp("127.0.0.1", 0);
    pool.spawn(echo_one(listener));
    auto client = co_await stream_socket::connect_tcp("127.0.0.1", listener.port());
    const std::string message(100'000, 'e');  // larger than a socket buffer: writes must wait
    // The writer runs concurrently (a large write only completes while the echo is read).
    auto writer = [&]() -> task<void> {
      co_await client.write_all(bytes(message));
      client.shutdown_write();
    };
    pool.spawn(writer());
    const std::string echoed = co_await read_all(client);
    co_return echoed == message ? "ok" : "mismatch: " + std::to_string(echoed.size());
  };
  EXPECT_EQ(shoal::sync_wait(run()), "ok");
}

TEST(Socket, UnixSocketEcho) {
  const auto path =
      std::filesystem::temp_directory_path() / ("shoal-test-" + std::to_string(::getpid()));
  std::filesystem::remove(path);
  shoal::testing::running_pool running(2);
  shoal::thread_pool& pool = running.pool;
  auto run = [&]() -> task<std::string> {
    co_await pool.schedule();
    auto listener = stream_listener::listen_unix(path.string());
    pool.spawn(echo_one(listener));
    auto client = co_await stream_socket::connect_unix(path.string());
    co_await client.write_all(bytes("hello"));
    client.shutdown_write();
    co_return co_await read_all(client);
  };
  EXPECT_EQ(shoal::sync_wait(run()), "hello");
  std::filesystem::remove(path);
}

TEST(Socket, ConnectionRefusedIsAnErrorNamingTheTarget) {
  shoal::testing::running_pool running(2);
  shoal::thread_pool& pool = running.pool;
  auto run = [&]() -> task<std::string> {
    co_await pool.schedule();
    std::uint16_t port = 0;
    {
      auto listener = stream_listener::listen_tcp("127.0.0.1", 0);
      port = listener.port();
    }  // closed: nothing listens there now
    try {
      co_await stream_socket::connect_tcp("127.0.0.1", port);
    } catch (const std::system_error& e) {
      co_return e.code() == std::errc::connection_refused ? std::string(e.what()) : "other error";
    }
    co_return "connected";
  };
  const std::string what = shoal::sync_wait(run());
  EXPECT_NE(what.find("127.0.0.1"), std::string::npos) << what;
}

TEST(Socket, PendingReadIsCancelledByATimeout) {
  shoal::testing::running_pool running(2);
  shoal::thread_pool& pool = running.pool;
  auto run = [&]() -> task<bool> {
    co_await pool.schedule();
    auto listener = stream_listener::listen_tcp("127.0.0.1", 0);
    auto client = co_await stream_socket::connect_tcp("127.0.0.1", listener.port());
    auto peer = co_await listener.accept();  // connected, but never writes
    std::array<std::byte, 16> buf{};
    try {
      co_await shoal::with_timeout(20ms, client.read_some(buf));
    } catch (const std::system_error& e) {
      co_return e.code() == std::errc::operation_canceled;
    }
    co_return false;
  };
  EXPECT_TRUE(shoal::sync_wait(run()));
}

TEST(Socket, PendingAcceptIsCancelledByAStop) {
  shoal::testing::running_pool running(2);
  shoal::thread_pool& pool = running.pool;
  auto run = [&]() -> task<bool> {
    co_await pool.schedule();
    auto listener = stream_listener::listen_tcp("127.0.0.1", 0);
    try {
      co_await shoal::with_timeout(20ms, listener.accept());
    } catch (const std::system_error& e) {
      co_return e.code() == std::errc::operation_canceled;
    }
    co_return false;
  };
  EXPECT_TRUE(shoal::sync_wait(run()));
}

TEST(Socket, BadListenAddressIsRefusedClearly) {
  shoal::testing::running_pool running(2);
  shoal::thread_pool& pool = running.pool;
  auto run = [&]() -> task<std::string> {
    co_await pool.schedule();
    try {
      (void)stream_listener::listen_tcp("not-an-address", 0);
    } catch (const std::system_error& e) {
      co_return e.what();
    }
    co_return "";
  };
  EXPECT_NE(shoal::sync_wait(run()).find("not-an-address"), std::string::npos);
}

}  // namespace
