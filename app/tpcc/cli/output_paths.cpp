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

// load --csv DIR: what is wrong with exporting into `dir` (created when missing), or nullopt.
std::optional<std::string> unusable_export_dir(const std::string& dir) {
  std::error_code ec;
  const fs::path p(dir);
  const fs::file_status status = fs::status(p, ec);
  if (fs::exists(status)) {
    if (!fs::is_directory(status)) return std::string("is not a directory");
    if (::access(dir.c_str(), W_OK | X_OK) != 0) return std::string("is not writable");
    if (!fs::is_empty(p, ec)) {
      return std::string(
          "is not empty (the export writes new files only: empty it or name a "
          "new directory)");
    }
    return std::nullopt;
  }
  const fs::path parent = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  if (fs::exists(parent, ec) && !fs::is_directory(parent, ec)) {
    return parent.string() + " is not a directory";
  }
  if (!fs::is_directory(parent, ec)) return "directory " + parent.string() + " does not exist";
  if (::access(parent.c_str(), W_OK | X_OK) != 0) {
    return "directory " + parent.string() + " is not writable";
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check_output_paths(const config& cfg) {
  if (cfg.cmd == command::load && !cfg.csv_path.empty()) {
    if (auto why = unusable_export_dir(cfg.csv_path)) {
      return "--csv " + cfg.csv_path + ": " + *why + " (checked before starting)";
    }
  }
  const std::array<std::pair<std::string_view, const std::string*>, 5> outputs{{
      {"--csv", &cfg.csv_path},
      {"--json", &cfg.json_path},
      {"--html", &cfg.html_path},
      {"--hdr-log", &cfg.hdr_log_path},
      {"--delivery-log", &cfg.delivery_log_path},
  }};
  for (const auto& [flag, path] : outputs) {
    if (path->empty() || (flag == "--csv" && cfg.cmd == command::load)) continue;
    if (auto why = unwritable(*path)) {
      return std::string(flag) + " " + *path + ": " + *why + " (checked before starting)";
    }
  }
  return std::nullopt;
}

}  // namespace tpcc::cli
