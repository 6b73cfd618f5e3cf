// SPDX-License-Identifier: Apache-2.0
// tests/app/run/secrets_binary_test.cpp: no password of a --db target is ever shown (issue 35):
// every password shape a generator or a user produces ('/', '?', '@', '#', '%', a space,
// base64), in every form (MySQL URI, PostgreSQL URI, key=value, the query's password=), through
// the redaction, the target readers' messages, and the binary's output as users run it.
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "binary.hpp"
#include "driver/mysql/uri.hpp"
#include "driver/open.hpp"
#include "driver/postgres/postgres.hpp"

namespace {

using tpcc::testing::binary_result;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::run_binary;

const std::vector<std::string> passwords = {
    "pa/ss/word",     "s3cr?t=x", "p@ss@word", "pw#frag9", "p%zzword", "two words",
    "aB3+/x9Kq/Zw==",  // base64, as generated passwords are
};

// Each form a target may take, with `pw` typed into it as is (unencoded). Nothing listens on
// port 1, so opening fails at once.
std::vector<std::string> targets(const std::string& pw) {
  return {
      "mysql://bob:" + pw + "@127.0.0.1:1/tpcc",
      "mariadb://bob:" + pw + "@127.0.0.1:1/tpcc?ssl=true",
      "mysql://bob@127.0.0.1:1/tpcc?password=" + pw,
      "postgresql://bob:" + pw + "@127.0.0.1:1/tpcc",
      "postgres://bob:" + pw + "@127.0.0.1:1/tpcc?sslmode=disable",
      "postgresql://bob@127.0.0.1:1/tpcc?password=" + pw,
      "host=127.0.0.1 port=1 user=bob password=" + pw + " dbname=tpcc",
      "host=127.0.0.1 port=1 user=bob password='" + pw + "' dbname=tpcc",
  };
}

// The password, or any 4 of its characters in a row that hold none of the separators around
// it: what a leak of its start or end would show.
void expect_hidden(const std::string& text, const std::string& pw, const std::string& target) {
  EXPECT_FALSE(contains(text, pw)) << target << "\n" << text;
  const std::string start = pw.substr(0, 4);
  if (start.find_first_of("/?@#% ") == std::string::npos) {
    EXPECT_FALSE(contains(text, start)) << target << "\n" << text;
  }
}

TEST(secrets, TheRedactionHidesEveryPasswordShape) {
  for (const std::string& pw : passwords) {
    for (const std::string& t : targets(pw)) {
      const std::string shown = tpcc::driver::redact(t);
      expect_hidden(shown, pw, t);
      EXPECT_TRUE(contains(shown, "***")) << t << " -> " << shown;
    }
  }
}

TEST(secrets, TheTargetReadersMessagesNeverQuoteThePassword) {
  for (const std::string& pw : passwords) {
    for (const std::string& t : targets(pw)) {
      std::string why;
      if (tpcc::driver::mysql::is_mysql_uri(t)) {
        const auto parsed = tpcc::driver::mysql::parse_uri(t);
        if (const auto* wrong = std::get_if<std::string>(&parsed)) why = *wrong;
      } else {
        why = tpcc::driver::postgres::check_target(t);
      }
      expect_hidden(why, pw, t);
    }
  }
}

TEST(secrets, AMysqlPasswordWithRawSeparatorsIsReadWhole) {
  for (const std::string& pw :
       {std::string("pa/ss"), std::string("s3cr?t"), std::string("p@ss@w"), std::string("pw#x")}) {
    const auto parsed = tpcc::driver::mysql::parse_uri("mysql://bob:" + pw + "@h:3307/db?ssl=1");
    ASSERT_TRUE(std::holds_alternative<tpcc::driver::mysql::uri>(parsed)) << pw;
    const auto& u = std::get<tpcc::driver::mysql::uri>(parsed);
    EXPECT_EQ(u.password, pw);
    EXPECT_EQ(u.user, "bob");
    EXPECT_EQ(u.host, "h");
    EXPECT_EQ(u.port, 3307U);
    EXPECT_EQ(u.database, "db");
  }
}

TEST(secrets, TheBinaryNeverPrintsThePassword) {
  for (const std::string& pw : passwords) {
    for (const std::string& t : targets(pw)) {
      const binary_result r = run_binary({"init", "--db", t});
      EXPECT_NE(r.exit_code, 0) << describe(r);
      EXPECT_NE(r.exit_code, -1) << describe(r);  // a signal or the time limit
      expect_hidden(r.out + r.err, pw, t);
    }
  }
}

}  // namespace
