// SPDX-License-Identifier: Apache-2.0
// tests/fuzz/result_reader.cpp: the result reader (`merge`'s and `compare`'s input) on any
// bytes: parse_json either refuses with a one-line message naming the file, or gives a result
// that merges, is summarised, written back and compared with itself (text, JSON, HTML) without
// undefined behaviour (ASan, UBSan).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <variant>

#include "compare/render.hpp"
#include "report/json.hpp"
#include "report/merge.hpp"
#include "report/summary.hpp"

namespace {

void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "result_reader: %s\n", what);
  std::abort();
}

}  // namespace

// libFuzzer names the entry point.
// NOLINTNEXTLINE(readability-identifier-naming)
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tpcc::report;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto read = parse_json(text, "in.json");
  if (const auto* why = std::get_if<std::string>(&read)) {
    require(why->starts_with("in.json: "), "a message that does not name the file");
    require(why->find('\n') == std::string::npos, "a message of more than one line");
    return 0;
  }
  const loaded_result& loaded = std::get<loaded_result>(read);
  const auto merged = merge_results({{"in.json", loaded}});
  if (const auto* m = std::get_if<merged_result>(&merged)) {
    (void)format_summary(m->result, m->context.target);
    (void)to_json_text(m->result, m->context);
  }
  tpcc::compare::compare_report c;
  c.fail_if_slower = 5;
  c.comparisons.push_back(tpcc::compare::compare(loaded, "a.json", loaded, "b.json"));
  (void)tpcc::compare::format_text(c);
  (void)tpcc::compare::to_json_text(c);
  (void)tpcc::compare::format_html(c);
  return 0;
}
