// SPDX-License-Identifier: Apache-2.0
// app/tpcc/metrics/http.hpp: the little HTTP/1.x the metrics endpoint speaks.
//
// What: answer(request, page) gives the whole response to one request head (the request line
// and headers up to the empty line): `GET /metrics` (a query string is ignored) gets 200 with
// page() as `text/plain; version=0.0.4`, the Prometheus text format; HEAD the same without the
// body; any other path 404; any other method 405; a head that is not HTTP 400. Every response
// has its Content-Length and `Connection: close`: the server answers one request per
// connection. A head still without its empty line at max_request_head bytes gets 431.
// head_complete(received) says whether the bytes read so far hold a whole head. busy() is the
// 503 for a client the server has no room for.
// page is called only for a request that gets the page.
// Thread-safety: pure functions (page is the caller's).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace tpcc::metrics {

// The longest request head read; a longer one is answered 431.
inline constexpr std::size_t max_request_head = 8192;

inline constexpr std::string_view exposition_content_type =
    "text/plain; version=0.0.4; charset=utf-8";

[[nodiscard]] bool head_complete(std::string_view received);
[[nodiscard]] std::string answer(std::string_view head, const std::function<std::string()>& page);
[[nodiscard]] std::string busy();

}  // namespace tpcc::metrics
