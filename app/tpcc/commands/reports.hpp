// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/reports.hpp: the report files a result is written to, for `run` and
// `merge` alike.
// Thread-safety: plain functions; they write the files the command line names and print any
// failure on stderr ("shoal-tpcc: --html: ...").
#pragma once

#include <string>

#include "cli/config.hpp"
#include "run_result/result.hpp"

namespace tpcc::commands {

/// --html FILE, --csv FILE, --hdr-log FILE, each tried. Result: false (each failure printed)
/// when one could not be written.
[[nodiscard]] bool write_report_files(const cli::config& cfg, const run::run_result& r,
                                      const std::string& target);

/// --json FILE. Result: false (the failure printed) when it could not be written.
[[nodiscard]] bool write_result_json(const cli::config& cfg, const run::run_result& r,
                                     const std::string& target);

}  // namespace tpcc::commands
