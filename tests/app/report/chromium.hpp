// SPDX-License-Identifier: Apache-2.0
// tests/app/report/chromium.hpp: renders a local page in a real headless Chromium.
//
// What: find_chromium() finds the Debian `chromium` binary (nullopt: not installed, the test
// skips). dump_dom() loads file://PAGE and returns the DOM after the page's scripts ran;
// screenshot() saves a PNG of it. Chromium is started so that it never reaches for the
// network: --headless --no-sandbox --disable-gpu --disable-quic --no-first-run
// --disable-background-networking --disable-component-update --disable-sync, a fresh
// --user-data-dir each time (removed afterwards), at most 120 s. Thread-safety: any thread.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace tpcc::testing {

[[nodiscard]] std::optional<std::filesystem::path> find_chromium();

struct browser_result {
  int exit_code = -1;
  std::string out;  // stdout (the DOM for dump_dom)
  std::string err;
};

[[nodiscard]] browser_result dump_dom(const std::filesystem::path& chromium,
                                      const std::filesystem::path& page);
// The same in a window of width x height pixels.
[[nodiscard]] browser_result dump_dom(const std::filesystem::path& chromium,
                                      const std::filesystem::path& page, int width, int height);
[[nodiscard]] browser_result screenshot(const std::filesystem::path& chromium,
                                        const std::filesystem::path& page,
                                        const std::filesystem::path& png, int width, int height);

}  // namespace tpcc::testing
