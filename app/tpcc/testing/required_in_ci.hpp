// SPDX-License-Identifier: Apache-2.0
// required_in_ci.hpp: under CI (the environment variable CI=true), what the project's own script
// installs is required: a test that would skip for want of it fails instead.
#pragma once

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tpcc::testing {

// Throws std::runtime_error naming `what` when CI=true (the test fails where it would have
// skipped); does nothing otherwise.
inline void require_in_ci(std::string_view what) {
  const char* ci = std::getenv("CI");
  if (ci != nullptr && std::string_view(ci) == "true") {
    throw std::runtime_error(std::string(what) +
                             " is missing, and CI=true requires it (scripts/install-deps.sh "
                             "installs it): a test that needs it must not skip there");
  }
}

}  // namespace tpcc::testing
