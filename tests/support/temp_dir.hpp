// SPDX-License-Identifier: Apache-2.0
// tests/support/temp_dir.hpp: a temporary directory for one test, removed at the end.
//
// What: a fresh directory under the system's temporary directory, named after `prefix`, the
// process and the moment, so parallel test processes never share one; file(name) is a path
// inside it. Thread-safety: one owner; paths may be read from any thread.
#pragma once

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>

namespace tpcc::testing {

class temp_dir {
 public:
  explicit temp_dir(const std::string& prefix = "shoal-test")
      : dir_(std::filesystem::temp_directory_path() /
             (prefix + "-" + std::to_string(::getpid()) + "-" +
              std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()))) {
    std::filesystem::create_directories(dir_);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  ~temp_dir() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  [[nodiscard]] const std::filesystem::path& path() const noexcept { return dir_; }
  [[nodiscard]] std::string file(const std::string& name) const { return (dir_ / name).string(); }

 private:
  std::filesystem::path dir_;
};

}  // namespace tpcc::testing
