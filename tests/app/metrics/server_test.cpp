// SPDX-License-Identifier: Apache-2.0
// tests/app/metrics/server_test.cpp: the endpoint under hostile clients, over real sockets:
// a client that sends half a request and waits, a MiB of header lines, a header line with no
// end, 200 idle clients at once and more than the server holds. Each time the next ordinary
// scrape must still be answered, the server must never hold more connections than its limit,
// nor more of a request than its bound. Clients are plain blocking sockets on the test's
// thread; the server runs on a real pool until the test ends it.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "metrics/http.hpp"
#include "metrics/server.hpp"
#include "shoal/async_event.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task_group.hpp"
#include "support/running_pool.hpp"

namespace {

using shoal::testing::eventually;

std::string scrape_page() { return "x_total 1\n"; }

// A serve() with `limits` on a pool of its own, from construction to destruction.
class served {
 public:
  explicit served(tpcc::metrics::serve_limits limits) {
    std::promise<std::uint16_t> bound;
    auto port = bound.get_future();
    runner_ = std::thread([this, limits, &bound] { shoal::sync_wait(run(limits, bound)); });
    port_ = port.get();
  }
  served(const served&) = delete;
  served& operator=(const served&) = delete;
  ~served() {
    end_.set();
    runner_.join();
  }
  [[nodiscard]] std::uint16_t port() const { return port_; }

 private:
  shoal::task<void> run(tpcc::metrics::serve_limits limits, std::promise<std::uint16_t>& bound) {
    co_await p_.pool.schedule();
    auto listener = tpcc::metrics::listen("127.0.0.1", 0);
    auto& l = std::get<shoal::stream_listener>(listener);
    bound.set_value(l.port());
    co_await shoal::with_task_group<void>([&](shoal::task_group<void>& group) -> shoal::task<void> {
      group.spawn(tpcc::metrics::serve(l, scrape_page, limits));
      co_await end_.wait();
    });
  }

  shoal::testing::running_pool p_{2};
  shoal::async_event end_;
  std::thread runner_;
  std::uint16_t port_ = 0;
};

// A blocking client socket connected to the server; closed when destroyed.
class client {
 public:
  explicit client(std::uint16_t port) : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd_ < 0 || ::connect(fd_, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0) {
      throw std::runtime_error("connect failed: errno " + std::to_string(errno));
    }
    // A server that never answers fails the test instead of hanging it (no timing is judged).
    const timeval patience{.tv_sec = 30, .tv_usec = 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
    ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &patience, sizeof patience);
  }
  client(const client&) = delete;
  client& operator=(const client&) = delete;
  ~client() { ::close(fd_); }

  // Sends all of `bytes`; false when the server closed or reset first.
  bool send(const std::string& bytes) {
    std::size_t sent = 0;
    while (sent < bytes.size()) {
      const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return false;
      sent += static_cast<std::size_t>(n);
    }
    return true;
  }
  // Sends `chunk` again and again until the server closes or resets, or `total` bytes went out;
  // how many bytes went out.
  std::size_t send_until_refused(const std::string& chunk, std::size_t total) {
    std::size_t sent = 0;
    while (sent < total && send(chunk)) sent += chunk.size();
    return sent;
  }
  [[nodiscard]] int fd() const { return fd_; }
  // Everything the server sends until it closes (what arrived before a reset included).
  std::string answer() {
    std::string got;
    char buffer[4096];
    while (true) {
      const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n <= 0) break;
      got.append(buffer, static_cast<std::size_t>(n));
    }
    return got;
  }

 private:
  int fd_;
};

std::string status_of(const std::string& response) {
  return response.substr(0, response.find("\r\n"));
}

std::string scrape(std::uint16_t port) {
  client c(port);
  c.send("GET /metrics HTTP/1.1\r\nHost: t\r\n\r\n");
  return status_of(c.answer());
}

constexpr tpcc::metrics::serve_limits patient{.connections = 4,
                                              .per_connection = std::chrono::hours(1)};

TEST(metrics_server_hostile, AClientThatSendsHalfARequestDoesNotHoldTheNext) {
  served s(patient);
  client slow(s.port());
  ASSERT_TRUE(slow.send("GET /metr"));  // and nothing more, for the server's hour
  ASSERT_TRUE(eventually([] { return tpcc::metrics::connections_open() == 1; }));
  // Served one at a time, this scrape would wait for the slow client's hour.
  EXPECT_EQ(scrape(s.port()), "HTTP/1.1 200 OK");
  EXPECT_TRUE(eventually([] { return tpcc::metrics::connections_open() == 1; }));  // the slow one
}

TEST(metrics_server_hostile, AMebibyteOfHeaderLinesIsRefusedAndTheNextClientServed) {
  served s(patient);
  {
    client huge(s.port());
    std::string head = "GET /metrics HTTP/1.1\r\n";
    while (head.size() < 1024 * 1024) head += "X-Padding: " + std::string(100, 'a') + "\r\n";
    huge.send(head);  // the server stops reading at 8 KiB: the rest may be refused
    const std::string got = huge.answer();
    // What reached the client before the server's close is the 431 (a reset may drop it).
    if (!got.empty()) {
      EXPECT_EQ(status_of(got), "HTTP/1.1 431 Request Header Fields Too Large");
    }
  }
  EXPECT_LE(tpcc::metrics::largest_request_held(), tpcc::metrics::max_request_head);
  EXPECT_EQ(scrape(s.port()), "HTTP/1.1 200 OK");
  EXPECT_TRUE(eventually([] { return tpcc::metrics::connections_open() == 0; }));
}

// A header line that never ends: the server reads its 8 KiB, answers and closes while the
// client is still sending, having held exactly its bound of it and not a byte more.
TEST(metrics_server_hostile, AnEndlessHeaderLineIsCutOffAtTheBoundNotBuffered) {
  served s(patient);
  {
    client endless(s.port());
    // The head held one byte short of the bound: the next read is the one that could cross it.
    std::string start = "GET /metrics HTTP/1.1\r\nX-Endless: ";
    start.resize(tpcc::metrics::max_request_head - 1, 'a');
    ASSERT_TRUE(endless.send(start));
    ASSERT_TRUE(eventually([&] { return tpcc::metrics::request_bytes_held() == start.size(); }));
    // 64 MiB is far more than loopback's socket buffers take (a few MiB): all of it going out
    // would mean the server read on past its bound.
    constexpr std::size_t flood = std::size_t{64} << 20;
    EXPECT_LT(endless.send_until_refused(std::string(64 * 1024, 'a'), flood), flood);
  }
  EXPECT_EQ(tpcc::metrics::largest_request_held(), tpcc::metrics::max_request_head);
  EXPECT_EQ(scrape(s.port()), "HTTP/1.1 200 OK");
  EXPECT_TRUE(eventually([] { return tpcc::metrics::connections_open() == 0; }));
  EXPECT_TRUE(eventually([] { return tpcc::metrics::request_bytes_held() == 0; }));
}

// 200 clients connect at once and say nothing. The server holds its default limit of them (16)
// and answers each other one 503 at once, so a scraper is told to come back instead of being
// left waiting; once the idle ones leave, the next scrape is served.
TEST(metrics_server_hostile, TwoHundredIdleClientsGetTheLimitHeldTheRest503ThenAScrapeIsServed) {
  const tpcc::metrics::serve_limits limits{.per_connection = std::chrono::hours(1)};
  served s(limits);
  std::vector<std::unique_ptr<client>> idle;
  for (int i = 0; i < 200; ++i) idle.push_back(std::make_unique<client>(s.port()));
  std::vector<pollfd> fds;
  for (const auto& c : idle) fds.push_back({.fd = c->fd(), .events = POLLIN, .revents = 0});
  // The refused ones are answered and closed: each is read when it becomes readable.
  std::size_t refused = 0;
  while (refused < idle.size() - limits.connections) {
    const int ready = ::poll(fds.data(), fds.size(), 30'000);  // a hang guard, judging no time
    ASSERT_GT(ready, 0) << "only " << refused << " refused";
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      EXPECT_EQ(status_of(idle[i]->answer()), "HTTP/1.1 503 Service Unavailable");
      fds[i].fd = -1;  // poll skips it from now on
      ++refused;
    }
    EXPECT_LE(tpcc::metrics::connections_open(), limits.connections);
  }
  EXPECT_TRUE(eventually([&] { return tpcc::metrics::connections_open() == limits.connections; }));
  EXPECT_EQ(::poll(fds.data(), fds.size(), 0), 0) << "a held client was answered";
  idle.clear();  // the held ones leave: the server has room again
  ASSERT_TRUE(eventually([] { return tpcc::metrics::connections_open() == 0; }));
  EXPECT_EQ(scrape(s.port()), "HTTP/1.1 200 OK");
}

TEST(metrics_server_hostile, ClientsBeyondTheLimitAreTold503AndTheServerHoldsNoMore) {
  served s(patient);  // 4 at once
  std::vector<std::unique_ptr<client>> idle;
  for (int i = 0; i < 4; ++i) {
    idle.push_back(std::make_unique<client>(s.port()));
    ASSERT_TRUE(idle.back()->send("GET"));
  }
  ASSERT_TRUE(eventually([] { return tpcc::metrics::connections_open() == 4; }));
  // 100 more at once: each is answered 503 without being held.
  std::vector<std::unique_ptr<client>> more;
  for (int i = 0; i < 100; ++i) more.push_back(std::make_unique<client>(s.port()));
  for (auto& c : more) {
    EXPECT_EQ(status_of(c->answer()), "HTTP/1.1 503 Service Unavailable");
    EXPECT_LE(tpcc::metrics::connections_open(), 4U);
  }
  idle.clear();  // the held ones leave: the server has room again
  ASSERT_TRUE(eventually([] { return tpcc::metrics::connections_open() == 0; }));
  EXPECT_EQ(scrape(s.port()), "HTTP/1.1 200 OK");
}

TEST(metrics_server_hostile, AClientThatTricklesIsDroppedAtItsTimeLimit) {
  served s({.connections = 4, .per_connection = std::chrono::milliseconds(200)});
  client slow(s.port());
  ASSERT_TRUE(slow.send("GET /metrics HTTP/1.1\r\n"));  // never the empty line
  EXPECT_EQ(slow.answer(), "");  // closed by the server, unanswered, at its limit
  EXPECT_TRUE(eventually([] { return tpcc::metrics::connections_open() == 0; }));
  EXPECT_EQ(scrape(s.port()), "HTTP/1.1 200 OK");
}

}  // namespace
