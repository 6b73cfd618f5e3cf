// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/output_paths.hpp: every output file the command line names, checked before any
// work starts, so that an hour's run is never lost to a typo in --json's directory.
//
// What: check_output_paths(cfg) looks at --json, --html, --hdr-log, --csv and --delivery-log:
// the directory must exist and be writable, and the file, if it exists, must be a regular
// file that can be written. Returns one line naming the option, the path and what is wrong, or
// nullopt. Nothing is created or truncated here: the writers do that at the end.
// `load --csv DIR` names a directory: it must be a writable empty directory, or not exist
// under a writable one (the export creates it).
// Thread-safety: reads the file system only.
#pragma once

#include <optional>
#include <string>

#include "cli/config.hpp"

namespace tpcc::cli {

[[nodiscard]] std::optional<std::string> check_output_paths(const config& cfg);

}  // namespace tpcc::cli
