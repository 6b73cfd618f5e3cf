// redact() (open.hpp): a connection string with its password replaced by "***".
//
// Both of libpq's forms, keeping the form: in a URI the password of the user-info part
// (user:PASSWORD@host) and any `password=` query parameter; in the key/value form the value of
// `password`, quoted or not. Then a safety net: when libpq parses the string and finds a
// password that still appears in the result, the result is rebuilt from libpq's parse as
// key/value pairs with password=***. A string that is neither form is returned unchanged.
#include <libpq-fe.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>

#include "driver/open.hpp"

namespace tpcc::driver {

namespace {

constexpr std::string_view hidden = "***";

bool is_uri(std::string_view s) {
  return s.starts_with("postgresql://") || s.starts_with("postgres://") ||
         s.starts_with("mysql://") || s.starts_with("mariadb://");
}

// The query part: every password=VALUE parameter.
std::string redact_query(std::string_view query) {
  std::string out;
  std::size_t start = 0;
  while (start <= query.size()) {
    std::size_t end = query.find('&', start);
    if (end == std::string_view::npos) end = query.size();
    const std::string_view param = query.substr(start, end - start);
    if (param.starts_with("password=")) {
      out.append("password=").append(hidden);
    } else {
      out.append(param);
    }
    if (end < query.size()) out.push_back('&');
    start = end + 1;
  }
  return out;
}

std::string redact_uri(std::string_view s) {
  const std::size_t authority = s.find("://") + 3;
  std::size_t authority_end = s.find('/', authority);
  if (authority_end == std::string_view::npos) authority_end = s.size();
  std::string out;
  // The last '@' before the path: hides more than libpq's first '@' when a raw '@' is typed.
  const std::size_t at = s.substr(0, authority_end).rfind('@');
  std::size_t rest = authority;
  if (at != std::string_view::npos && at >= authority) {
    const std::size_t colon = s.substr(0, at).find(':', authority);
    if (colon != std::string_view::npos) {
      out.append(s.substr(0, colon + 1)).append(hidden);
      rest = at;
    }
  }
  if (out.empty()) out.append(s.substr(0, authority));
  const std::size_t query = s.find('?', rest);
  if (query == std::string_view::npos) return out.append(s.substr(rest));
  out.append(s.substr(rest, query + 1 - rest));
  return out.append(redact_query(s.substr(query + 1)));
}

bool space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// key = value pairs as libpq reads them: values unquoted (up to a space) or 'quoted', with
// backslash escapes in both.
std::string redact_key_values(std::string_view s) {
  std::string out;
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t key_start = i;
    while (i < s.size() && s[i] != '=' && !space(s[i])) ++i;
    const std::string_view key = s.substr(key_start, i - key_start);
    while (i < s.size() && space(s[i])) ++i;
    if (i >= s.size() || s[i] != '=') {  // a word without '=': keep it, unless "password"
      out.append(s.substr(key_start, i - key_start));
      if (key == "password") {  // "password secret": hide the next word too
        while (i < s.size() && !space(s[i])) ++i;
        out.append(hidden);
      }
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

}  // namespace

std::string redact(const std::string& target) {
  std::string out = is_uri(target) ? redact_uri(target) : redact_key_values(target);
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

}  // namespace tpcc::driver
