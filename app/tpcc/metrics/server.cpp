// SPDX-License-Identifier: Apache-2.0
// app/tpcc/metrics/server.cpp: accepting and answering scrapes (see server.hpp).
#include "metrics/server.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <span>
#include <system_error>
#include <utility>

#include "metrics/http.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/task_group.hpp"
#include "shoal/timeout.hpp"

namespace tpcc::metrics {
namespace {

std::atomic<std::size_t> open_connections{0};
std::atomic<std::size_t> bytes_held{0};
std::atomic<std::size_t> largest_head{0};

// A request head being read, counted in the process's figures while it is held.
class counted_head {
 public:
  counted_head() { text_.reserve(max_request_head); }  // one allocation, never grown past it
  counted_head(const counted_head&) = delete;
  counted_head& operator=(const counted_head&) = delete;
  ~counted_head() { bytes_held.fetch_sub(text_.size(), std::memory_order_relaxed); }

  void append(std::span<const char> bytes) {
    text_.append(bytes.data(), bytes.size());
    // relaxed: figures for tests and the bound, ordered with nothing.
    bytes_held.fetch_add(bytes.size(), std::memory_order_relaxed);
    std::size_t seen = largest_head.load(std::memory_order_relaxed);
    while (seen < text_.size() &&
           !largest_head.compare_exchange_weak(seen, text_.size(), std::memory_order_relaxed)) {
    }
  }
  [[nodiscard]] const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// Reads a request head (never past max_request_head bytes), answers it, closes.
shoal::task<void> answer_one(shoal::stream_socket peer, const std::function<std::string()>& page) {
  counted_head head;
  std::array<char, 1024> buffer{};
  while (!head_complete(head.text()) && head.text().size() < max_request_head) {
    // Never more than the head has room for: the bound is exact, not one read past it.
    const auto room =
        std::span(buffer).first(std::min(buffer.size(), max_request_head - head.text().size()));
    const std::size_t n = co_await peer.read_some(std::as_writable_bytes(room));
    if (n == 0) break;
    head.append(room.first(n));
  }
  if (head.text().empty()) co_return;  // connected and closed without asking
  const std::string response = answer(head.text(), page);
  co_await peer.write_all(std::as_bytes(std::span(response)));
  peer.shutdown_write();
}

// One connection, counted while open and bounded in time; whatever goes wrong with it only
// drops it.
shoal::task<void> serve_one(shoal::stream_socket peer, const std::function<std::string()>& page,
                            std::chrono::milliseconds limit, std::atomic<std::size_t>& active) {
  try {
    co_await shoal::with_timeout(limit, answer_one(std::move(peer), page));
  } catch (const std::system_error&) {  // NOLINT(bugprone-empty-catch)
    // reset by the peer, timed out, or stopped: nothing to answer any more
  }
  active.fetch_sub(1, std::memory_order_release);
  open_connections.fetch_sub(1, std::memory_order_relaxed);
}

// A connection over the limit: told so without reading its request, then closed.
shoal::task<void> refuse_busy(shoal::stream_socket peer) {
  const std::string response = busy();
  try {
    co_await shoal::with_timeout(std::chrono::milliseconds(100),
                                 peer.write_all(std::as_bytes(std::span(response))));
    peer.shutdown_write();
  } catch (const std::system_error&) {  // NOLINT(bugprone-empty-catch)
    // the client went away or does not read: closing is all that is left
  }
}

// The next connection, or an empty socket when accept failed (stopped, or a transient error).
shoal::task<shoal::stream_socket> accept_next(shoal::stream_listener& listener) {
  try {
    co_return co_await listener.accept();
  } catch (const std::system_error&) {
    co_return shoal::stream_socket{};
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

std::size_t connections_open() noexcept { return open_connections.load(std::memory_order_relaxed); }

std::size_t request_bytes_held() noexcept { return bytes_held.load(std::memory_order_relaxed); }

std::size_t largest_request_held() noexcept { return largest_head.load(std::memory_order_relaxed); }

shoal::task<void> serve(shoal::stream_listener& listener, std::function<std::string()> page,
                        serve_limits limits) {
  std::atomic<std::size_t> active{0};  // this call's connections being served
  co_await shoal::with_task_group<void>([&](shoal::task_group<void>& group) -> shoal::task<void> {
    while (!shoal::stop_requested()) {
      // Take the results of the connections that ended, so finished ones hold nothing.
      while (group.outstanding() > active.load(std::memory_order_acquire)) {
        static_cast<void>(co_await group.next_result());
      }
      shoal::stream_socket peer = co_await accept_next(listener);
      if (!peer) {
        if (!shoal::stop_requested()) {
          static_cast<void>(co_await shoal::sleep_for(std::chrono::milliseconds(100)));
        }
      } else if (active.load(std::memory_order_acquire) >= limits.connections) {
        co_await refuse_busy(std::move(peer));
      } else {
        active.fetch_add(1, std::memory_order_relaxed);
        open_connections.fetch_add(1, std::memory_order_relaxed);
        group.spawn(serve_one(std::move(peer), page, limits.per_connection, active));
      }
    }
  });
}

}  // namespace tpcc::metrics
