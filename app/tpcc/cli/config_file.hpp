// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/config_file.hpp: a configuration file (--config run.toml) read into the same
// options the command line takes.
//
// What: read_config_file(path) parses a TOML file (toml++, Debian's libtomlplusplus-dev) whose
// top-level keys are long option names without the dashes (`duration = "10m"`, `warehouses =
// 100`, `no-tui = true`). A string, integer or float becomes the option's value; `true` gives a
// flag, `false` leaves it out; `db = [...]` is one --db per string, and `[[schedule]]` tables
// (`rate = TPM`, `duration = "60s"` each) one --schedule of their steps in order. Each entry
// keeps its line, so that an error about it (an unknown key, a value the option refuses, another
// table or array) names the file and the line. The
// entries are applied before the command line's options, which therefore override them.
// Errors: a file that cannot be read or is not valid TOML gives one line naming the file, the
// line and column, and what is wrong.
// Thread-safety: a pure function of the file.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tpcc::cli {

struct config_entry {
  std::string name;                  // the option, without the leading --
  std::optional<std::string> value;  // nullopt for a flag
  long line = 0;                     // in the file, from 1
};

[[nodiscard]] std::variant<std::vector<config_entry>, std::string> read_config_file(
    const std::string& path);

}  // namespace tpcc::cli
