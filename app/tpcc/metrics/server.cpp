// SPDX-License-Identifier: Apache-2.0
// app/tpcc/metrics/server.cpp: accepting and answering scrapes (see server.hpp).
#include "metrics/server.hpp"

#include <array>
#include <cstddef>
#include <span>
#include <system_error>
#include <utility>

#include "metrics/http.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/timeout.hpp"

namespace tpcc::metrics {
namespace {

// Reads a request head (at most max_request_head bytes), answers it, closes.
shoal::task<void> answer_one(shoal::stream_socket peer, const std::function<std::string()>& page) {
  std::string head;
  std::array<char, 1024> buffer{};
  while (!head_complete(head) && head.size() < max_request_head) {
    const std::size_t n = co_await peer.read_some(std::as_writable_bytes(std::span(buffer)));
    if (n == 0) break;
    head.append(buffer.data(), n);
  }
  if (head.empty()) co_return;  // connected and closed without asking
  const std::string response = answer(head, page);
  co_await peer.write_all(std::as_bytes(std::span(response)));
  peer.shutdown_write();
}

// One connection, bounded in time; whatever goes wrong with it only drops it.
shoal::task<void> serve_one(shoal::stream_socket peer, const std::function<std::string()>& page) {
  try {
    co_await shoal::with_timeout(connection_limit, answer_one(std::move(peer), page));
  } catch (const std::system_error&) {
    co_return;  // reset by the peer, timed out, or stopped: nothing to answer any more
  }
}

}  // namespace

std::variant<shoal::stream_listener, std::string> listen(const std::string& host,
                                                         std::uint16_t port) {
  try {
    return shoal::stream_listener::listen_tcp(host, port);
  } catch (const std::system_error& e) {
    return std::string(e.what());
  }
}

shoal::task<void> serve(shoal::stream_listener& listener, std::function<std::string()> page) {
  while (!shoal::stop_requested()) {
    shoal::stream_socket peer;
    try {
      peer = co_await listener.accept();
    } catch (const std::system_error&) {
      if (shoal::stop_requested()) break;
    }
    if (peer) {
      co_await serve_one(std::move(peer), page);
    } else if (!shoal::stop_requested()) {
      static_cast<void>(co_await shoal::sleep_for(std::chrono::milliseconds(100)));
    }
  }
}

}  // namespace tpcc::metrics
