// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/phase.hpp: the phases of a run, as every display and report names them.
//
// What: starting (connecting, waiting for --start-at), warm-up, measuring (the measurement
// interval of clause 5.5), draining (issuing stopped, transactions in flight finishing), done.
// Thread-safety: plain values.
#pragma once

#include <cstdint>

namespace tpcc::stats {

enum class phase : std::uint8_t { starting, warmup, measuring, draining, done };
[[nodiscard]] const char* to_string(phase p) noexcept;

}  // namespace tpcc::stats
