// required_in_ci.hpp: under CI (the environment variable CI=true), what the project's own script
// installs is required: a test that would skip for want of it fails instead.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string_view>

namespace shoal::testing {

// Records a test failure naming `what` when CI=true; does nothing otherwise (the caller skips).
inline void require_in_ci(std::string_view what) {
  const char* ci = std::getenv("CI");
  if (ci != nullptr && std::string_view(ci) == "true") {
    ADD_FAILURE() << what << " is missing, and CI=true requires it (scripts/install-deps.sh "
                  << "installs it): a test that needs it must not skip there";
  }
}

}  // namespace shoal::testing
