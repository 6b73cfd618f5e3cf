// SPDX-License-Identifier: Apache-2.0
// NURand constants for load and run; see nurand.hpp.
#include "random/nurand.hpp"

#include <cstdint>

namespace tpcc::random {

nurand_constants load_constants(rng& r) noexcept {
  nurand_constants c;
  c.c_last = r.uniform(0, 255);
  c.c_id = r.uniform(0, 1023);
  c.ol_i_id = r.uniform(0, 8191);
  return c;
}

nurand_constants run_constants(rng& r, const nurand_constants& load) noexcept {
  nurand_constants c;
  // Every load value in 0..255 has valid partners (c + 65 <= 255 or c - 65 >= 0), and at least
  // 53 of the 256 candidates pass, so the loop ends after a handful of draws.
  do {
    c.c_last = r.uniform(0, 255);
  } while (!c_last_delta_ok(load.c_last, c.c_last));
  c.c_id = r.uniform(0, 1023);
  c.ol_i_id = r.uniform(0, 8191);
  return c;
}

nurand_constants shared_run_constants(const nurand_constants& load) noexcept {
  const auto bits = static_cast<std::uint64_t>(load.c_last) << 40U |
                    static_cast<std::uint64_t>(load.c_id) << 20U |
                    static_cast<std::uint64_t>(load.ol_i_id);
  rng r(bits ^ 0x7470'6363'2D72'756EULL);  // "tpcc-run"
  return run_constants(r, load);
}

bool c_last_delta_ok(std::int64_t load_c, std::int64_t run_c) noexcept {
  const std::int64_t delta = run_c > load_c ? run_c - load_c : load_c - run_c;
  return delta >= 65 && delta <= 119 && delta != 96 && delta != 112;
}

}  // namespace tpcc::random
