// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/merge.cpp: `shoal-tpcc merge a.json b.json ...`: one result from several
// shards' (report/merge.hpp; see commands.hpp).
#include <cstdio>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "commands/commands.hpp"
#include "commands/reports.hpp"
#include "report/json.hpp"
#include "report/merge.hpp"
#include "report/summary.hpp"

namespace tpcc::commands {
namespace {

// A result file that cannot be read or merged is bad input: exit status 2.
int refuse_merge(const std::string& message) {
  fail("merge", message);
  return exit_usage;
}

}  // namespace

int merge_command(const cli::config& cfg) {
  std::vector<report::merge_input> inputs;
  for (const std::string& file : cfg.inputs) {
    auto read = report::read_json(file);
    if (auto* error = std::get_if<std::string>(&read)) return refuse_merge(*error);
    inputs.push_back({file, std::move(std::get<report::loaded_result>(read))});
  }
  auto merged = report::merge_results(inputs);
  if (auto* error = std::get_if<std::string>(&merged)) return refuse_merge(*error);
  const report::merged_result& m = std::get<report::merged_result>(merged);
  for (const std::string& note : m.notes) std::printf("merge: %s\n", note.c_str());
  std::printf("%s", report::format_summary(m.result, m.context.target).c_str());
  std::fflush(stdout);
  const bool reports = write_report_files(cfg, m.result, m.context.target);  // --html, --hdr-log
  const bool json = write_result_json(cfg, m.result, m.context.target);
  return reports && json ? exit_ok : exit_failed;
}

}  // namespace tpcc::commands
