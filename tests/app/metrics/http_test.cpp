// SPDX-License-Identifier: Apache-2.0
// tests/app/metrics/http_test.cpp: the endpoint's HTTP answers (pure), then the server on a
// real socket of a real pool, stopped by its scope's end.
#include "metrics/http.hpp"

#include <gtest/gtest.h>

#include <array>
#include <span>
#include <string>

#include "metrics/server.hpp"
#include "shoal/socket.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task_group.hpp"
#include "support/running_pool.hpp"

namespace {

using tpcc::metrics::answer;

std::string page() { return "# HELP x_total X\n# TYPE x_total counter\nx_total 1\n"; }

std::string body_of(const std::string& response) {
  const auto end = response.find("\r\n\r\n");
  return end == std::string::npos ? "" : response.substr(end + 4);
}

TEST(metrics_http, GetMetricsIsAnsweredWithThePageInTheTextFormat) {
  const std::string r = answer("GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n", page);
  EXPECT_EQ(r.rfind("HTTP/1.1 200 OK\r\n", 0), 0U) << r;
  EXPECT_NE(r.find("\r\nContent-Type: text/plain; version=0.0.4"), std::string::npos) << r;
  EXPECT_NE(r.find("\r\nContent-Length: " + std::to_string(page().size()) + "\r\n"),
            std::string::npos)
      << r;
  EXPECT_NE(r.find("\r\nConnection: close\r\n"), std::string::npos) << r;
  EXPECT_EQ(body_of(r), page());
  EXPECT_EQ(body_of(answer("GET /metrics?name[]=x HTTP/1.0\n\n", page)), page());
  const std::string head = answer("HEAD /metrics HTTP/1.1\r\n\r\n", page);
  EXPECT_EQ(head.rfind("HTTP/1.1 200 OK", 0), 0U);
  EXPECT_EQ(body_of(head), "");
}

TEST(metrics_http, OtherPathsMethodsAndGarbageAreRefused) {
  int pages = 0;
  const auto counted = [&pages] {
    ++pages;
    return page();
  };
  EXPECT_EQ(answer("GET / HTTP/1.1\r\n\r\n", counted).rfind("HTTP/1.1 404 Not Found", 0), 0U);
  EXPECT_EQ(answer("GET /metricsx HTTP/1.1\r\n\r\n", counted).rfind("HTTP/1.1 404", 0), 0U);
  EXPECT_EQ(answer("POST /metrics HTTP/1.1\r\n\r\n", counted).rfind("HTTP/1.1 405", 0), 0U);
  EXPECT_EQ(answer("hello\r\n\r\n", counted).rfind("HTTP/1.1 400", 0), 0U);
  EXPECT_EQ(answer("GET /metrics SPDY/3\r\n\r\n", counted).rfind("HTTP/1.1 400", 0), 0U);
  EXPECT_EQ(pages, 0) << "the page is rendered only when it is sent";
}

TEST(metrics_http, AHeadStillOpenAtTheLimitIs431AndTheBusyAnswerIs503) {
  bool asked = false;
  const auto counted = [&asked] {
    asked = true;
    return page();
  };
  std::string head = "GET /metrics HTTP/1.1\r\n";
  head.resize(tpcc::metrics::max_request_head, 'a');
  EXPECT_EQ(answer(head, counted).rfind("HTTP/1.1 431 ", 0), 0U);
  head.resize(tpcc::metrics::max_request_head - 1);  // shorter: a head the client ended early
  EXPECT_EQ(answer(head, counted).rfind("HTTP/1.1 200 ", 0), 0U);
  EXPECT_TRUE(asked);
  EXPECT_EQ(tpcc::metrics::busy().rfind("HTTP/1.1 503 Service Unavailable\r\n", 0), 0U);
}

TEST(metrics_http, AHeadIsCompleteAtItsEmptyLine) {
  EXPECT_FALSE(tpcc::metrics::head_complete("GET /metrics HTTP/1.1\r\nHost: x\r\n"));
  EXPECT_TRUE(tpcc::metrics::head_complete("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"));
  EXPECT_TRUE(tpcc::metrics::head_complete("GET /metrics HTTP/1.0\n\n"));
}

// Connects, sends `request`, reads the answer to its end.
shoal::task<std::string> fetch(std::uint16_t port, std::string request) {
  auto s = co_await shoal::stream_socket::connect_tcp("127.0.0.1", port);
  co_await s.write_all(std::as_bytes(std::span(request)));
  std::string got;
  std::array<char, 4096> buffer{};
  while (true) {
    const std::size_t n = co_await s.read_some(std::as_writable_bytes(std::span(buffer)));
    if (n == 0) break;
    got.append(buffer.data(), n);
  }
  co_return got;
}

struct scrapes {
  std::string metrics, other;
};

// Serves as a child of a task_group while two requests are made, then leaves the scope: the
// server must stop with it.
shoal::task<scrapes> serve_twice(shoal::thread_pool& pool) {
  co_await pool.schedule();
  auto listener = tpcc::metrics::listen("127.0.0.1", 0);
  auto& bound = std::get<shoal::stream_listener>(listener);
  const std::uint16_t port = bound.port();
  co_return co_await shoal::with_task_group<void>(
      [&](shoal::task_group<void>& group) -> shoal::task<scrapes> {
        group.spawn(tpcc::metrics::serve(bound, page));
        scrapes s;
        s.metrics = co_await fetch(port, "GET /metrics HTTP/1.1\r\nHost: t\r\n\r\n");
        s.other = co_await fetch(port, "GET /nothing HTTP/1.1\r\n\r\n");
        co_return s;
      });
}

TEST(metrics_server, AnswersOverARealSocketAndStopsWithItsScope) {
  shoal::testing::running_pool p(2);
  const scrapes s = shoal::sync_wait(serve_twice(p.pool));
  EXPECT_EQ(body_of(s.metrics), page()) << s.metrics;
  EXPECT_EQ(s.other.rfind("HTTP/1.1 404", 0), 0U) << s.other;
}  // the pool stops here: nothing of the server may be left on it

TEST(metrics_server, AnAddressInUseIsRefusedSayingSo) {
  shoal::testing::running_pool p(1);
  const std::string why =
      shoal::sync_wait([](shoal::thread_pool& pool) -> shoal::task<std::string> {
        co_await pool.schedule();
        auto first = tpcc::metrics::listen("127.0.0.1", 0);
        const std::uint16_t port = std::get<shoal::stream_listener>(first).port();
        auto second = tpcc::metrics::listen("127.0.0.1", port);
        co_return std::holds_alternative<std::string>(second) ? std::get<std::string>(second) : "";
      }(p.pool));
  EXPECT_NE(why.find("in use"), std::string::npos) << why;
}

}  // namespace
