// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/compare.cpp: `shoal-tpcc compare A.json B.json ...`: each later result
// against the first (compare/; see commands.hpp).
#include <cstdio>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "commands/commands.hpp"
#include "compare/render.hpp"
#include "report/json.hpp"

namespace tpcc::commands {
namespace {

// Reads every file through the checked reader before comparing anything; the first that
// cannot be read is named.
std::variant<std::vector<report::loaded_result>, std::string> read_all(
    const std::vector<std::string>& files) {
  std::vector<report::loaded_result> out;
  for (const std::string& file : files) {
    auto read = report::read_json(file);
    if (auto* error = std::get_if<std::string>(&read)) return std::move(*error);
    out.push_back(std::move(std::get<report::loaded_result>(read)));
  }
  return out;
}

// --json, --html: each tried; false when one could not be written (the failure printed).
bool write_files(const cli::config& cfg, const compare::compare_report& r) {
  bool written = true;
  if (!cfg.json_path.empty()) {
    const auto failed = compare::write_json(r, cfg.json_path);
    if (failed) fail("--json", *failed);
    written = written && !failed;
  }
  if (!cfg.html_path.empty()) {
    const auto failed = compare::write_html(r, cfg.html_path);
    if (failed) fail("--html", *failed);
    written = written && !failed;
  }
  return written;
}

}  // namespace

int compare_command(const cli::config& cfg) {
  auto read = read_all(cfg.inputs);
  if (auto* error = std::get_if<std::string>(&read)) {
    fail("compare", *error);
    return exit_usage;
  }
  const auto& results = std::get<std::vector<report::loaded_result>>(read);
  compare::compare_report r;
  r.fail_if_slower = cfg.fail_if_slower;
  for (std::size_t i = 1; i < results.size(); ++i) {
    r.comparisons.push_back(compare::compare(results[0], cfg.inputs[0], results[i], cfg.inputs[i]));
  }
  std::printf("%s", compare::format_text(r).c_str());
  std::fflush(stdout);
  if (!write_files(cfg, r)) return exit_failed;
  return r.gate_failed() ? exit_slower : exit_ok;
}

}  // namespace tpcc::commands
