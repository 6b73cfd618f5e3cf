// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/text_file.hpp: writes a report file whole, or says why it could not.
//
// What: creates or truncates `path` and writes `content`; the error names the path and the
// system's reason (a half-written file is reported as a failure, never as done).
// Thread-safety: any thread; distinct paths are independent.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tpcc::report {

// nullopt when written; otherwise "cannot write <what> to <path>: <reason>".
[[nodiscard]] std::optional<std::string> write_text_file(const std::string& path,
                                                         std::string_view content,
                                                         std::string_view what);

}  // namespace tpcc::report
