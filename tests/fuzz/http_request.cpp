// SPDX-License-Identifier: Apache-2.0
// tests/fuzz/http_request.cpp: the metrics endpoint's request parser on any request head:
// head_complete() and answer() never crash, and every answer is a whole HTTP/1.1 response with
// its Content-Length.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "metrics/http.hpp"

// libFuzzer names the entry point.
// NOLINTNEXTLINE(readability-identifier-naming)
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view head(reinterpret_cast<const char*>(data), size);
  (void)tpcc::metrics::head_complete(head);
  const std::string response = tpcc::metrics::answer(head, [] { return std::string("x 1\n"); });
  if (!response.starts_with("HTTP/1.") || response.find("Content-Length: ") == std::string::npos ||
      response.find("\r\n\r\n") == std::string::npos) {
    std::fprintf(stderr, "http_request: not a whole response\n");
    std::abort();
  }
  return 0;
}
