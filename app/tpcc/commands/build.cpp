// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/build.cpp: the build's version and commit (see build.hpp), the one file
// compiled with them (SHOAL_TPCC_VERSION, the generated tpcc_commit.hpp).
#include "commands/build.hpp"

#include "tpcc_commit.hpp"

namespace tpcc::commands {

const char* build_version() noexcept { return SHOAL_TPCC_VERSION; }

const char* build_commit() noexcept { return SHOAL_TPCC_COMMIT; }

}  // namespace tpcc::commands
