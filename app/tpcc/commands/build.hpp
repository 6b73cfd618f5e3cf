// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/build.hpp: this build of shoal-tpcc: its version and the source commit it was
// built from, as `--version` and every result's provenance give them.
// Thread-safety: constants.
#pragma once

namespace tpcc::commands {

/// The project's version (CMake's PROJECT_VERSION).
[[nodiscard]] const char* build_version() noexcept;

/// The commit the build's sources were at (12 hex digits, "-dirty" with uncommitted changes);
/// "unknown" outside git (cmake/tpcc_commit.cmake).
[[nodiscard]] const char* build_commit() noexcept;

}  // namespace tpcc::commands
