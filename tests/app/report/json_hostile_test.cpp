// SPDX-License-Identifier: Apache-2.0
// tests/app/report/json_hostile_test.cpp: the result reader against hostile documents (issue
// 35): every scalar of a written result given another type, huge, negative or fractional
// numbers, truncated and deeply nested text. Each is refused with a message naming the file and
// the field, or (a figure the reader recomputes) ignored; none throws, none is undefined.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <variant>

#include "json_variants.hpp"
#include "report/json.hpp"
#include "report/merge.hpp"
#include "sample_run.hpp"

namespace {

using nlohmann::json;
using tpcc::report::loaded_result;
using tpcc::report::parse_json;

const std::string file = "r.json";

json written() {
  tpcc::run::run_result r = tpcc::testing::sample_run(4, 5.0);
  r.client.worker_busy = {0.5, 0.25};
  return json::parse(tpcc::report::to_json_text(r, {.target = "sqlite:x.db", .version = "t"}));
}

// Refused naming the field at `path`, or loaded when the reader ignores it; loaded or not,
// merging it with itself must not throw.
void expect_refused_or_ignored(const json& doc, const std::string& path) {
  const auto read = parse_json(doc.dump(), file);
  if (const auto* why = std::get_if<std::string>(&read)) {
    EXPECT_TRUE(why->starts_with(file + ": ")) << *why;
    EXPECT_EQ(why->find('\n'), std::string::npos) << *why;
    EXPECT_NE(why->find(path), std::string::npos) << path << ": " << *why;
    return;
  }
  EXPECT_TRUE(tpcc::testing::derived(path)) << path << " was accepted with another type";
  const loaded_result& loaded = std::get<loaded_result>(read);
  EXPECT_NO_THROW((void)tpcc::report::merge_results({{"a", loaded}}));
}

TEST(json_hostile, TheWrittenDocumentIsRead) {
  ASSERT_TRUE(std::holds_alternative<loaded_result>(parse_json(written().dump(), file)));
}

TEST(json_hostile, EveryScalarOfAnotherTypeIsRefusedNamingItsField) {
  const json doc = written();
  const auto all = tpcc::testing::scalars(doc);
  ASSERT_GT(all.size(), 150U);  // 206 shapes in the written document
  for (const auto& s : all) {
    json bad = doc;
    bad[s.pointer] = tpcc::testing::wrong_type(doc[s.pointer]);
    expect_refused_or_ignored(bad, s.path);
    bad[s.pointer] = nullptr;
    if (!doc[s.pointer].is_null()) expect_refused_or_ignored(bad, s.path);
  }
}

TEST(json_hostile, HugeNegativeAndFractionalNumbersAreRefusedOrHarmless) {
  const json doc = written();
  for (const auto& s : tpcc::testing::scalars(doc)) {
    if (!doc[s.pointer].is_number()) continue;
    for (const json& v :
         {json(1e300), json(-1), json(0.5), json(std::uint64_t{18'446'744'073'709'551'615U})}) {
      json bad = doc;
      bad[s.pointer] = v;
      const auto read = parse_json(bad.dump(), file);
      if (const auto* why = std::get_if<std::string>(&read)) {
        EXPECT_TRUE(why->starts_with(file + ": field ")) << *why;
        continue;
      }
      const loaded_result& loaded = std::get<loaded_result>(read);
      EXPECT_NO_THROW((void)tpcc::report::merge_results({{"a", loaded}}));
    }
  }
}

TEST(json_hostile, TheThreeFieldsOfTheCoreDumpAreRefused) {
  const json doc = written();
  for (const char* where : {"/config/terminals_per_warehouse", "/config/isolation",
                            "/series/0/client/deliveries_queued"}) {
    for (const json& v : {json("ten"), json(10.5), json::array(), json::object(), json(true)}) {
      json bad = doc;
      bad[json::json_pointer(where)] = v;
      const auto read = parse_json(bad.dump(), file);
      ASSERT_TRUE(std::holds_alternative<std::string>(read)) << where << " = " << v.dump();
      const std::string field = std::string(where).substr(std::string(where).rfind('/') + 1);
      EXPECT_NE(std::get<std::string>(read).find(field), std::string::npos)
          << std::get<std::string>(read);
    }
  }
}

TEST(json_hostile, HugeDurationsAreRefusedBeforeTheClockOverflows) {
  json doc = written();
  doc["config"]["warmup_seconds"] = 1e300;
  const auto read = parse_json(doc.dump(), file);
  ASSERT_TRUE(std::holds_alternative<std::string>(read));
  EXPECT_EQ(std::get<std::string>(read),
            file + ": field config.warmup_seconds: expected a number from 0 to 1e8");
  doc = written();
  doc["started"] = "9999-12-31T23:59:59.000Z";  // beyond a nanosecond clock
  EXPECT_TRUE(std::holds_alternative<std::string>(parse_json(doc.dump(), file)));
}

TEST(json_hostile, TruncatedGarbageAndDeepDocumentsAreRefused) {
  const std::string text = written().dump();
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, text.size() / 3, text.size() - 1}) {
    const auto read = parse_json(text.substr(0, n), file);
    ASSERT_TRUE(std::holds_alternative<std::string>(read)) << n;
    EXPECT_EQ(std::get<std::string>(read), file + ": not valid JSON");
  }
  for (const std::string garbage : {"\x01\x02\xff", "[]", "null", "\"text\"", "{\"format\": 7}"}) {
    EXPECT_TRUE(std::holds_alternative<std::string>(parse_json(garbage, file))) << garbage;
  }
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  const auto read = parse_json(deep, file);
  ASSERT_TRUE(std::holds_alternative<std::string>(read));
  EXPECT_TRUE(std::get<std::string>(read).starts_with(file + ": nested deeper than 64 levels"));
}

TEST(json_hostile, AKeyWithANewlineIsNamedOnOneLine) {
  json doc = written();
  doc["transactions"][0]["errors_by_sqlstate_class"]["40\n01"] = "x";
  const auto read = parse_json(doc.dump(), file);
  ASSERT_TRUE(std::holds_alternative<std::string>(read));
  EXPECT_EQ(std::get<std::string>(read).find('\n'), std::string::npos);
  EXPECT_NE(std::get<std::string>(read).find("40?01"), std::string::npos);
}

}  // namespace
