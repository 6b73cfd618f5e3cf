// SPDX-License-Identifier: Apache-2.0
// tests/fuzz/target.cpp: --db targets. Any bytes as a whole target go through every reader
// (parse_target, the MySQL URI reader, the PostgreSQL check, the redaction) without a crash.
// Then the oracle: the bytes as a password typed unencoded into each form of target; the
// password starts with a marker found nowhere else ("Q7"), so the marker in the redacted
// target or in a reader's message is a leak, and aborts.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <variant>

#include "driver/mysql/uri.hpp"
#include "driver/open.hpp"
#include "driver/postgres/postgres.hpp"
#include "driver/target.hpp"

namespace {

namespace driver = tpcc::driver;

// What the readers say about `t`: the target reader's, then the engine's own.
std::string messages(const std::string& t) {
  std::string out;
  const auto parsed = driver::parse_target(t);
  if (const auto* why = std::get_if<std::string>(&parsed)) out += *why;
  if (driver::mysql::is_mysql_uri(t)) {
    const auto uri = driver::mysql::parse_uri(t);
    if (const auto* why = std::get_if<std::string>(&uri)) out += *why;
  } else if (driver::engine_of(t) == driver::engine::postgres) {
    out += driver::postgres::check_target(t);
  }
  return out;
}

void expect_hidden(const std::string& t, const std::string& text, const char* where) {
  if (text.find("Q7") == std::string::npos) return;
  std::fprintf(stderr, "target: the password shows in %s\n  target: %s\n  shown: %s\n", where,
               t.c_str(), text.c_str());
  std::abort();
}

}  // namespace

// libFuzzer names the entry point.
// NOLINTNEXTLINE(readability-identifier-naming)
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  if (bytes.find('\0') != std::string::npos) return 0;  // a C string: no command line holds one
  (void)driver::redact(bytes);
  (void)messages(bytes);
  (void)driver::without_password("x" + bytes, bytes);
  if (bytes.empty() || bytes.find("Q7") != std::string::npos) return 0;
  const std::string pw = "Q7" + bytes.substr(1);
  const std::string forms[] = {
      "mysql://bob:" + pw + "@127.0.0.1:3306/tpcc",
      "mariadb://bob:" + pw + "@h/tpcc?ssl=true&protocol=text",
      "mysql://bob@h:3306/tpcc?password=" + pw,
      "postgresql://bob:" + pw + "@127.0.0.1:5432/tpcc",
      "postgres://bob:" + pw + "@h/tpcc?sslmode=disable",
      "postgresql://bob@h/tpcc?password=" + pw,
      "host=h port=5432 user=bob password=" + pw + " dbname=tpcc",
      "host=h user=bob password='" + pw + "' dbname=tpcc",
  };
  const std::string& t = forms[static_cast<unsigned char>(bytes[0]) % std::size(forms)];
  expect_hidden(t, driver::redact(t), "the redacted target");
  expect_hidden(t, messages(t), "a reader's message");
  return 0;
}
