// SPDX-License-Identifier: Apache-2.0
// app/tpcc/random/nurand.hpp: the non-uniform random function NURand and its C constants
// (TPC-C clause 2.1.6).
//
// What: NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x, which makes
// some customers and items hot. Three constants C are used: A = 255 for C_LAST, A = 1023 for
// C_ID, A = 8191 for OL_I_ID. The loader draws one set (`load_constants`) and the run another
// (`run_constants`, clause 2.1.6.1), where C_LAST must differ from the load value by 65..119,
// excluding 96 and 112.
// Lifetime: plain values and functions. Thread-safety: as thread-safe as the rng passed in.
#pragma once

#include <cstdint>

#include "random/rng.hpp"

namespace tpcc::random {

struct nurand_constants {
  std::int64_t c_last = 0;   // C for A = 255, in 0..255
  std::int64_t c_id = 0;     // C for A = 1023, in 0..1023
  std::int64_t ol_i_id = 0;  // C for A = 8191, in 0..8191
};

// NURand(A, x, y) with constant c (clause 2.1.6). Requires 0 <= a, x <= y, 0 <= c.
[[nodiscard]] inline std::int64_t nurand(rng& r, std::int64_t a, std::int64_t x, std::int64_t y,
                                         std::int64_t c) noexcept {
  const std::int64_t mixed = r.uniform(0, a) | r.uniform(x, y);
  return ((mixed + c) % (y - x + 1)) + x;
}

// The constants used to populate the database: each C uniform in 0..A.
[[nodiscard]] nurand_constants load_constants(rng& r) noexcept;

// The constants used by a run against a database loaded with `load` (clause 2.1.6.1): c_last
// drawn until c_last_delta_ok(load.c_last, c_last); c_id and ol_i_id drawn afresh.
[[nodiscard]] nurand_constants run_constants(rng& r, const nurand_constants& load) noexcept;

// The run constants every client process of a run derives alike from the load's constants
// (stored with the load), so that shards agree by construction, --seed or not: run_constants
// over an rng seeded from `load` alone.
[[nodiscard]] nurand_constants shared_run_constants(const nurand_constants& load) noexcept;

// True when |run_c - load_c| is in 65..119 and is neither 96 nor 112 (clause 2.1.6.1).
[[nodiscard]] bool c_last_delta_ok(std::int64_t load_c, std::int64_t run_c) noexcept;

}  // namespace tpcc::random
