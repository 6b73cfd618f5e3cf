// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_facts.hpp: the HTML report's verdict and configuration sections (see
// html.hpp).
//
// What: verdict_section() is one row per verdict item (report/verdict.hpp): its name and
// clause, the figure measured, the limit, PASS / INCONCLUSIVE / FAIL / info and why.
// configuration_section() is how the result was obtained: the effective configuration (every
// setting, defaulted or not) and its provenance (command line with any password redacted,
// shoal-tpcc's version and commit, the server's version, the client host). Both escape every
// text they print.
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "report/verdict.hpp"
#include "run_result/result.hpp"

namespace tpcc::report::html {

[[nodiscard]] std::string verdict_section(const verdict& v);
[[nodiscard]] std::string configuration_section(const run::run_result& r);

}  // namespace tpcc::report::html
