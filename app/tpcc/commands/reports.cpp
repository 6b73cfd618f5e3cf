// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/reports.cpp: writing a result's report files (see reports.hpp).
#include "commands/reports.hpp"

#include "commands/app.hpp"
#include "commands/build.hpp"
#include "report/csv.hpp"
#include "report/hdr_log.hpp"
#include "report/html.hpp"
#include "report/json.hpp"

namespace tpcc::commands {

bool write_result_json(const cli::config& cfg, const run::run_result& r,
                       const std::string& target) {
  if (cfg.json_path.empty()) return true;
  const auto failed = report::write_json(cfg.json_path, r, {target, build_version()});
  if (failed) fail("--json", *failed);
  return !failed;
}

bool write_report_files(const cli::config& cfg, const run::run_result& r,
                        const std::string& target) {
  bool written = true;
  if (!cfg.html_path.empty()) {
    const auto failed = report::write_html(r, target, cfg.html_path);
    if (failed) fail("--html", *failed);
    written = written && !failed;
  }
  if (!cfg.csv_path.empty()) {
    const auto failed = report::write_csv(r, cfg.csv_path);
    if (failed) fail("--csv", *failed);
    written = written && !failed;
  }
  if (!cfg.hdr_log_path.empty()) {
    const auto failed = report::write_hdr_log(r, cfg.hdr_log_path);
    if (failed) fail("--hdr-log", *failed);
    written = written && !failed;
  }
  return written;
}

}  // namespace tpcc::commands
