// SPDX-License-Identifier: Apache-2.0
// app/tpcc/metrics/server.hpp: the metrics endpoint: an HTTP listener on the client's own
// reactor.
//
// What: listen() binds before anything else starts; serve() accepts and answers scrapes on the
// pool it is awaited on (no thread of its own: the listener and each connection wait on the
// worker's reactor), each with metrics/http.hpp's answer(), then closes the connection.
// Limits (serve_limits' defaults; max_request_head): at most 16 connections at once, a 17th 503
// at once, unread; each for at most 5 s from accept to close (a client that sends nothing,
// trickles, or does not read is dropped then), so a slow or stuck client never holds the next
// one; each holding at most max_request_head (8 KiB) of its request, never a byte past it (a
// longer head is answered 431 and closed, the rest unread), a 1 KiB read buffer and its one
// response (the page). The endpoint holds at most limits.connections x that, however many
// clients connect and whatever they send.
// Lifetime: the listener must outlive serve(); create it on a worker of the pool (its watch
// registers with that worker's reactor) and destroy it there after serve() has ended.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <variant>

#include "shoal/socket.hpp"
#include "shoal/task.hpp"

namespace tpcc::metrics {

/// How many clients serve() holds at once, and for how long each.
struct serve_limits {
  /// Connections served at once; one more is answered 503 without being read.
  std::size_t connections = 16;
  /// From accept to close: a connection still open then (silent, trickling, not reading) is
  /// dropped unanswered.
  std::chrono::milliseconds per_connection{5000};
};

/// The listener on host:port (port 0: any free port), or why it could not listen there
/// ("address in use", ...), so a bad or busy address is refused up front with a message naming
/// it. Thread-safety: call it on the worker that will await serve().
[[nodiscard]] std::variant<shoal::stream_listener, std::string> listen(const std::string& host,
                                                                       std::uint16_t port);

/// Serves scrapes on `listener` within `limits`, calling page() for each `GET /metrics`.
///   Result: void, once stopped.
///   Errors: none: a failing connection is dropped; an accept that fails for another reason
///           than the stop is retried after 100 ms.
///   Cancellation: the chain's stop token: the accept, or the connection being served, ends at
///                 once and serve() returns (run it as a child of the run's scope, e.g. a
///                 task_group, so the scope's end stops it).
///   Resumes on: a worker of the pool it was awaited on.
///   Thread-safety: one serve() per listener; page() is called from a worker of the pool.
///   Example:
///     group.spawn(metrics::serve(listener, [&] { return metrics::render(take()); }));
[[nodiscard]] shoal::task<void> serve(shoal::stream_listener& listener,
                                      std::function<std::string()> page, serve_limits limits = {});

/// How many connections this process's serve() calls hold now (for tests and the memory
/// bound). Thread-safety: any thread.
[[nodiscard]] std::size_t connections_open() noexcept;

/// How many bytes of requests the connections of this process hold now (for tests and the
/// memory bound). Thread-safety: any thread.
[[nodiscard]] std::size_t request_bytes_held() noexcept;

/// The most bytes of one request any connection of this process has held so far: never above
/// max_request_head, whatever a client sent (for tests of the bound). Thread-safety: any thread.
[[nodiscard]] std::size_t largest_request_held() noexcept;

}  // namespace tpcc::metrics
