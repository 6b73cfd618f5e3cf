// SPDX-License-Identifier: Apache-2.0
// redact() (open.hpp): a connection string with its password replaced by "***".
//
// Both of libpq's forms and the MySQL URI, keeping the form: in a URI the password of the
// user-info part (user:PASSWORD@host, to the LAST '@', so that a raw '/', '?', '#' or '@' in
// the password is hidden with it) and any `password=` query parameter (to the next '&'); in the
// key/value form the value of `password`, quoted or not, and every word without '=' (libpq
// refuses those; one may be the rest of a password typed with a space). Then safety nets: when
// libpq or the MySQL reader parses the string and finds a password that still appears in the
// result, the result is rebuilt from libpq's parse with password=***, or cut to the MySQL
// scheme. sqlite: and sim: targets, and a target of one word, are returned unchanged.
#include <libpq-fe.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "driver/mysql/uri.hpp"
#include "driver/open.hpp"
#include "driver/target.hpp"

namespace tpcc::driver {

namespace {

constexpr std::string_view hidden = "***";

bool is_uri(std::string_view s) {
  return s.starts_with("postgresql://") || s.starts_with("postgres://") ||
         s.starts_with("mysql://") || s.starts_with("mariadb://");
}

// A piece of the target to show as "***".
struct span {
  std::size_t from;
  std::size_t to;
};

// Every password=VALUE parameter of the query: its value up to the next '&'. Searched from the
// end of the scheme, not from the first '?' (a raw '?' may be in the password).
void query_passwords(std::string_view s, std::size_t authority, std::vector<span>& out) {
  constexpr std::string_view key = "password=";
  for (std::size_t p = s.find(key, authority); p != std::string_view::npos;
       p = s.find(key, p + 1)) {
    if (s[p - 1] != '?' && s[p - 1] != '&') continue;
    const std::size_t value = p + key.size();
    const std::size_t end = s.find('&', value);
    out.push_back({value, end == std::string_view::npos ? s.size() : end});
  }
}

// The user-info's password: from the first ':' of what precedes the LAST '@' (a raw '@', '/',
// '?' or '#' typed in a password ends nothing before it) to that '@'.
void userinfo_password(std::string_view s, std::size_t authority, std::vector<span>& out) {
  const std::size_t at = s.rfind('@');
  if (at == std::string_view::npos || at < authority) return;
  const std::size_t colon = s.substr(0, at).find(':', authority);
  if (colon != std::string_view::npos) out.push_back({colon + 1, at});
}

// `s` with each span (merged where they overlap) replaced by "***".
std::string hide(std::string_view s, std::vector<span> spans) {
  std::sort(spans.begin(), spans.end(), [](span a, span b) { return a.from < b.from; });
  std::string out;
  std::size_t shown = 0;
  for (const span& x : spans) {
    if (x.to <= shown) continue;
    if (x.from >= shown) {
      out.append(s.substr(shown, x.from - shown)).append(hidden);
    }
    shown = x.to;
  }
  return out.append(s.substr(shown));
}

std::string redact_uri(std::string_view s) {
  const std::size_t authority = s.find("://") + 3;
  std::vector<span> spans;
  userinfo_password(s, authority, spans);
  query_passwords(s, authority, spans);
  return hide(s, std::move(spans));
}

bool space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// key = value pairs as libpq reads them: values unquoted (up to a space) or 'quoted', with
// backslash escapes in both.
std::string redact_key_values(std::string_view s) {
  std::string out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (space(s[i])) {
      out.push_back(s[i++]);
      continue;
    }
    const std::size_t key_start = i;
    while (i < s.size() && s[i] != '=' && !space(s[i])) ++i;
    const std::string_view key = s.substr(key_start, i - key_start);
    const std::size_t key_end = i;
    while (i < s.size() && space(s[i])) ++i;
    if (i >= s.size() || s[i] != '=') {  // a word without '=': libpq refuses it, and it may
      out.append(hidden);                // be the rest of a password typed with a space
      i = key_end;
      continue;
    }
    ++i;
    while (i < s.size() && space(s[i])) ++i;
    const std::size_t value_start = i;
    const bool quoted = i < s.size() && s[i] == '\'';
    if (quoted) ++i;
    while (i < s.size() && (quoted ? s[i] != '\'' : !space(s[i]))) i += s[i] == '\\' ? 2 : 1;
    if (quoted && i < s.size()) ++i;
    i = std::min(i, s.size());
    out.append(s.substr(key_start, value_start - key_start));
    out.append(key == "password" ? hidden : s.substr(value_start, i - value_start));
    const std::size_t gap_start = i;
    while (i < s.size() && space(s[i])) ++i;
    out.append(s.substr(gap_start, i - gap_start));
  }
  return out;
}

// libpq's parse with the password hidden, as key/value pairs.
std::string rebuilt(const PQconninfoOption* options) {
  std::string out;
  for (const PQconninfoOption* o = options; o->keyword != nullptr; ++o) {
    if (o->val == nullptr) continue;
    if (!out.empty()) out.push_back(' ');
    const std::string_view key = o->keyword;
    out.append(key).push_back('=');
    if (key == "password") {
      out.append(hidden);
    } else {
      out.push_back('\'');
      for (const char* c = o->val; *c != '\0'; ++c) {
        if (*c == '\'' || *c == '\\') out.push_back('\\');
        out.push_back(*c);
      }
      out.push_back('\'');
    }
  }
  return out;
}

// The password `target` holds, as the MySQL reader or libpq reads it; empty when none.
std::string password_of(const std::string& target) {
  if (mysql::is_mysql_uri(target)) {
    const auto parsed = mysql::parse_uri(target);
    const auto* u = std::get_if<mysql::uri>(&parsed);
    return u != nullptr ? u->password : std::string();
  }
  std::string password;
  PQconninfoOption* options = PQconninfoParse(target.c_str(), nullptr);
  if (options == nullptr) return password;
  for (const PQconninfoOption* o = options; o->keyword != nullptr; ++o) {
    if (std::string_view(o->keyword) == "password" && o->val != nullptr) password = o->val;
  }
  PQconninfoFree(options);
  return password;
}

// The MySQL reader's password, when it still shows: only the scheme is left.
std::string mysql_net(const std::string& target, std::string out) {
  const std::string password = password_of(target);
  if (password.empty() || out.find(password) == std::string::npos) return out;
  return target.substr(0, target.find("://") + 3).append(hidden);
}

}  // namespace

std::string redact(const std::string& target) {
  const engine kind = engine_of(target);
  if (kind == engine::sqlite || kind == engine::sim) return target;  // no password there
  // A URI of another scheme is refused naming it: its user-info hidden all the same.
  const bool uri =
      is_uri(target) || (kind == engine::unknown && target.find("://") != std::string::npos);
  if (!uri && kind != engine::postgres) return target;  // one word: no password form
  std::string out = uri ? redact_uri(target) : redact_key_values(target);
  if (mysql::is_mysql_uri(target)) return mysql_net(target, std::move(out));
  PQconninfoOption* options = PQconninfoParse(target.c_str(), nullptr);
  if (options == nullptr) return out;
  for (const PQconninfoOption* o = options; o->keyword != nullptr; ++o) {
    if (std::string_view(o->keyword) == "password" && o->val != nullptr && *o->val != '\0' &&
        out.find(o->val) != std::string::npos) {
      out = rebuilt(options);
      break;
    }
  }
  PQconninfoFree(options);
  return out;
}

std::string without_secret(std::string message, std::string_view secret) {
  if (secret.empty()) return message;
  for (std::size_t p = message.find(secret); p != std::string::npos;
       p = message.find(secret, p + hidden.size())) {
    message.replace(p, secret.size(), hidden);
  }
  return message;
}

std::string without_password(std::string message, const std::string& target) {
  return without_secret(std::move(message), password_of(target));
}

}  // namespace tpcc::driver
