// SPDX-License-Identifier: Apache-2.0
// tests/fuzz/config_file.cpp: a --config file of any bytes, read as the command line reads it
// (cli::parse with --config): a configuration or a one-line message; never a crash.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cli/options.hpp"

// libFuzzer names the entry point.
// NOLINTNEXTLINE(readability-identifier-naming)
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/shoal-fuzz-config-" + std::to_string(getpid()) + ".toml";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  const std::vector<std::string_view> args{"run", "--config", path};
  const auto parsed = tpcc::cli::parse(args);
  if (const auto* why = std::get_if<std::string>(&parsed)) {
    if (why->empty() || why->find('\n') != std::string::npos) {
      std::fprintf(stderr, "config_file: an empty or multi-line message: %s\n", why->c_str());
      std::abort();
    }
  }
  return 0;
}
