// SPDX-License-Identifier: Apache-2.0
// parse.hpp: the command line parsed as main parses it, for the option tests.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "cli/options.hpp"

namespace tpcc::cli::testing {

inline parse_result parse(std::vector<std::string_view> args) { return cli::parse(args); }

// The parse error for `args`, or "" when they parse.
inline std::string error_of(std::vector<std::string_view> args) {
  auto r = parse(std::move(args));
  return std::holds_alternative<std::string>(r) ? std::get<std::string>(r) : "";
}

// A TOML file in a fresh temporary directory named after `tag` and this process, removed with it.
class scratch_toml {
 public:
  explicit scratch_toml(const std::string& tag)
      : dir_(std::filesystem::temp_directory_path() /
             ("shoal-tpcc-" + tag + "-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(dir_);
  }
  ~scratch_toml() { std::filesystem::remove_all(dir_); }
  scratch_toml(const scratch_toml&) = delete;
  scratch_toml& operator=(const scratch_toml&) = delete;

  // Writes `text` as the file (replacing what it held); its path.
  std::string write(const std::string& text) {
    std::ofstream(path_) << text;
    return path_.string();
  }

 private:
  std::filesystem::path dir_;
  std::filesystem::path path_ = dir_ / "run.toml";
};

}  // namespace tpcc::cli::testing
