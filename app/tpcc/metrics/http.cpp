// SPDX-License-Identifier: Apache-2.0
// app/tpcc/metrics/http.cpp: answering one request (see http.hpp).
#include "metrics/http.hpp"

namespace tpcc::metrics {
namespace {

struct request_line {
  std::string_view method, path, version;
};

// "GET /metrics HTTP/1.1" split at its two spaces; empty fields when it is not that shape.
request_line parse_request_line(std::string_view head) {
  std::string_view line = head.substr(0, head.find('\n'));
  if (line.ends_with('\r')) line.remove_suffix(1);
  const auto first = line.find(' ');
  const auto second = first == std::string_view::npos ? first : line.find(' ', first + 1);
  if (second == std::string_view::npos) return {};
  return {line.substr(0, first), line.substr(first + 1, second - first - 1),
          line.substr(second + 1)};
}

std::string respond(std::string_view status, std::string_view type, const std::string& body,
                    bool with_body) {
  std::string out("HTTP/1.1 ");
  out.append(status).append("\r\nContent-Type: ").append(type);
  out.append("\r\nContent-Length: ").append(std::to_string(body.size()));
  out.append("\r\nConnection: close\r\n\r\n");
  if (with_body) out.append(body);
  return out;
}

std::string plain(std::string_view status, std::string_view text) {
  return respond(status, "text/plain; charset=utf-8", std::string(text) + "\n", true);
}

}  // namespace

bool head_complete(std::string_view received) {
  return received.find("\r\n\r\n") != std::string_view::npos ||
         received.find("\n\n") != std::string_view::npos;
}

std::string answer(std::string_view head, const std::function<std::string()>& page) {
  if (head.size() >= max_request_head && !head_complete(head)) {
    return plain("431 Request Header Fields Too Large", "the request head is over 8 KiB");
  }
  const request_line r = parse_request_line(head);
  if (r.method.empty() || r.path.empty() || !r.version.starts_with("HTTP/1.")) {
    return plain("400 Bad Request", "not an HTTP/1.x request");
  }
  if (r.method != "GET" && r.method != "HEAD") {
    return plain("405 Method Not Allowed", "only GET and HEAD are served");
  }
  if (r.path.substr(0, r.path.find('?')) != "/metrics") {
    return plain("404 Not Found", "the metrics are at /metrics");
  }
  return respond("200 OK", exposition_content_type, page(), r.method == "GET");
}

std::string busy() { return plain("503 Service Unavailable", "too many connections; try again"); }

}  // namespace tpcc::metrics
