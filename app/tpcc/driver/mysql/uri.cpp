// SPDX-License-Identifier: Apache-2.0
// Reading a mysql:// or mariadb:// target (uri.hpp).
#include "driver/mysql/uri.hpp"

#include <charconv>
#include <optional>

namespace tpcc::driver::mysql {
namespace {

int hex(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Percent-decoded `s`, or nothing when a %XX is malformed.
std::optional<std::string> decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out.push_back(s[i]);
      continue;
    }
    if (i + 2 >= s.size()) return std::nullopt;
    const int hi = hex(s[i + 1]);
    const int lo = hex(s[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return out;
}

std::string query_setting(uri& u, std::string_view key, std::string value) {
  if (key == "socket") {
    u.socket = std::move(value);
  } else if (key == "ssl") {
    if (value == "true" || value == "1" || value == "required") {
      u.mode = tls::required;
    } else if (value == "verify") {
      u.mode = tls::verified;
    } else if (value == "false" || value == "0") {
      u.mode = tls::off;
    } else {
      return "ssl=" + value + " is not true, verify or false";
    }
  } else if (key == "ssl-ca") {
    u.ssl_ca = std::move(value);
    u.mode = tls::verified;
  } else if (key == "protocol") {
    if (value == "prepared") {
      u.statements = protocol::prepared;
    } else if (value == "text") {
      u.statements = protocol::text;
    } else {
      return "protocol=" + value + " is not prepared or text";
    }
  } else if (key == "password") {
    u.password = std::move(value);
  } else {
    return "unknown setting '" + std::string(key) +
           "' (known: socket, ssl, ssl-ca, password, protocol)";
  }
  return {};
}

// After a password= setting nothing of the query is quoted: a raw '&' in the password would
// make its rest look like a setting.
std::string read_query(uri& u, std::string_view query) {
  bool after_password = false;
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    if (eq == std::string_view::npos) {
      return after_password ? "a setting without a value after password= (write a '&' in a "
                              "password as %26)"
                            : "setting '" + std::string(pair) + "' has no value";
    }
    std::optional<std::string> value = decode(pair.substr(eq + 1));
    if (!value) return "a malformed %-escape in setting '" + std::string(pair.substr(0, eq)) + "'";
    if (std::string why = query_setting(u, pair.substr(0, eq), std::move(*value)); !why.empty()) {
      return after_password ? "a malformed setting after password= (write a '&' in a "
                              "password as %26)"
                            : why;
    }
    after_password = after_password || pair.substr(0, eq) == "password";
  }
  return {};
}

std::string read_userinfo(uri& u, std::string_view userinfo) {
  const std::size_t colon = userinfo.find(':');
  // "host/db?password=a@b": the '@' was a query value's; the user name would quote it.
  if (userinfo.substr(0, colon).find_first_of("/?") != std::string_view::npos ||
      userinfo.find("?password=") != std::string_view::npos ||
      userinfo.find("&password=") != std::string_view::npos) {
    return "an '@' after the host, or a raw '/' or '?' in the user name (write them %40, %2F "
           "and %3F)";
  }
  std::optional<std::string> user = decode(userinfo.substr(0, colon));
  if (!user) return "a malformed %-escape in the user name";
  if (!user->empty()) u.user = std::move(*user);
  if (colon != std::string_view::npos) {
    std::optional<std::string> password = decode(userinfo.substr(colon + 1));
    if (!password) return "a malformed %-escape in the password";
    u.password = std::move(*password);
  }
  return {};
}

std::string read_host_port(uri& u, std::string_view hostport) {
  if (hostport.empty()) return {};
  std::string_view host = hostport;
  const std::size_t colon = hostport.rfind(':');
  if (colon != std::string_view::npos && hostport.find(']') == std::string_view::npos) {
    host = hostport.substr(0, colon);
    const std::string_view port = hostport.substr(colon + 1);
    unsigned value = 0;
    const auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (error != std::errc{} || end != port.data() + port.size() || value == 0 || value > 65535) {
      return "port '" + std::string(port) + "' is not a number from 1 to 65535";
    }
    u.port = value;
  }
  if (host.size() > 1 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (!host.empty()) u.host = std::string(host);
  return {};
}

}  // namespace

bool is_mysql_uri(std::string_view text) noexcept {
  return text.starts_with("mysql://") || text.starts_with("mariadb://");
}

std::variant<uri, std::string> parse_uri(std::string_view text) {
  if (!is_mysql_uri(text)) return std::string("does not start with mysql:// or mariadb://");
  uri u;
  std::string_view rest = text.substr(text.find("://") + 3);
  // The user-info first, to the LAST '@': a raw '/', '?', '#' or '@' in a password stays in it.
  if (const std::size_t at = rest.rfind('@'); at != std::string_view::npos) {
    if (std::string why = read_userinfo(u, rest.substr(0, at)); !why.empty()) return why;
    rest = rest.substr(at + 1);
  }
  std::string_view query;
  if (const std::size_t q = rest.find('?'); q != std::string_view::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  std::string_view path;
  if (const std::size_t slash = rest.find('/'); slash != std::string_view::npos) {
    path = rest.substr(slash + 1);
    rest = rest.substr(0, slash);
  }
  if (std::string why = read_host_port(u, rest); !why.empty()) return why;
  if (!path.empty()) {
    std::optional<std::string> database = decode(path);
    if (!database || database->find('/') != std::string::npos) {
      return std::string("the database name '") + std::string(path) + "' is not one name";
    }
    u.database = std::move(*database);
  }
  if (std::string why = read_query(u, query); !why.empty()) return why;
  return u;
}

}  // namespace tpcc::driver::mysql
