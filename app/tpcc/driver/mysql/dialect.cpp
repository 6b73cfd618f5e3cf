// SPDX-License-Identifier: Apache-2.0
// A driver statement in MySQL's dialect, and MySQL's errors as outcomes (dialect.hpp).
#include "driver/mysql/dialect.hpp"

#include <array>
#include <utility>

namespace tpcc::driver::mysql {

namespace {

bool digit(char c) noexcept { return c >= '0' && c <= '9'; }

void finish(step& s, std::vector<step>& out) {
  std::size_t first = s.sql.find_first_not_of(" \n\t");
  if (first == std::string::npos) return;  // an empty statement (a trailing ';')
  s.sql.erase(0, first);
  while (!s.sql.empty() && (s.sql.back() == ' ' || s.sql.back() == '\n')) s.sql.pop_back();
  s.is_call = s.sql.starts_with("CALL ");
  out.push_back(std::move(s));
}

constexpr std::array<unsigned, 9> lost_codes{2002, 2003, 2006, 2013, 2055, 1053, 1927, 4031, 2026};

}  // namespace

std::vector<step> steps_of(std::string_view text) {
  std::vector<step> out;
  step current;
  char quote = 0;
  const bool whole = text.starts_with("CREATE PROCEDURE ");  // its ';' are its body's
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote != 0) {
      current.sql.push_back(c);
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"' || c == '`') {
      quote = c;
      current.sql.push_back(c);
    } else if (c == ';' && !whole) {
      finish(current, out);
      current = step{};
    } else if (c == '$' && i + 1 < text.size() && digit(text[i + 1])) {
      std::size_t n = 0;
      while (i + 1 < text.size() && digit(text[i + 1])) n = n * 10 + (text[++i] - '0');
      current.sql.push_back('?');
      current.params.push_back(n - 1);
    } else {
      current.sql.push_back(c);
    }
  }
  finish(current, out);
  return out;
}

std::vector<step> steps_of(const statement& stmt) {
  return steps_of(stmt.mysql.empty() ? stmt.sql : stmt.mysql);
}

outcome lost(std::string message) {
  return outcome::make(outcome_kind::connection_lost, "",
                       "connection to the server lost: " + std::move(message));
}

outcome error_outcome(unsigned code, std::string_view sqlstate, std::string_view message) {
  std::string text = "MySQL error " + std::to_string(code);
  if (!sqlstate.empty()) text.append(" (").append(sqlstate).append(")");
  text.append(": ").append(message);
  for (const unsigned lost_code : lost_codes) {
    if (code == lost_code) return lost(std::move(text));
  }
  const bool retry =
      code == 1213 || code == 1205 || code == 1020 || code == 8002 || code == 8005 || code == 9007;
  std::string state(sqlstate);
  if (state == "00000") state.clear();
  return outcome::make(retry ? outcome_kind::retryable : outcome_kind::failed, std::move(state),
                       std::move(text));
}

}  // namespace tpcc::driver::mysql
