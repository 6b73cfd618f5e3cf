// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/output_paths.cpp: checking output paths up front (see output_paths.hpp).
#include "cli/output_paths.hpp"

#include <unistd.h>

#include <array>
#include <filesystem>
#include <string_view>
#include <system_error>
#include <utility>

namespace tpcc::cli {
namespace {

namespace fs = std::filesystem;

// What is wrong with writing `path`, or nullopt.
std::optional<std::string> unwritable(const std::string& path) {
  std::error_code ec;
  const fs::path p(path);
  const fs::file_status status = fs::status(p, ec);
  if (fs::exists(status)) {
    if (fs::is_directory(status)) return std::string("is a directory");
    if (::access(path.c_str(), W_OK) != 0) return std::string("exists and cannot be written");
    return std::nullopt;
  }
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  if (!fs::is_directory(dir, ec)) return "directory " + dir.string() + " does not exist";
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    return "directory " + dir.string() + " is not writable";
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check_output_paths(const config& cfg) {
  const std::array<std::pair<std::string_view, const std::string*>, 5> outputs{{
      {"--csv", &cfg.csv_path},
      {"--json", &cfg.json_path},
      {"--html", &cfg.html_path},
      {"--hdr-log", &cfg.hdr_log_path},
      {"--delivery-log", &cfg.delivery_log_path},
  }};
  for (const auto& [flag, path] : outputs) {
    if (path->empty()) continue;
    if (auto why = unwritable(*path)) {
      return std::string(flag) + " " + *path + ": " + *why + " (checked before starting)";
    }
  }
  return std::nullopt;
}

}  // namespace tpcc::cli
