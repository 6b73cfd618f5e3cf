// SPDX-License-Identifier: Apache-2.0
// app/tpcc/random/rng.hpp: the seeded pseudo-random generator behind every TPC-C draw.
//
// What: xoshiro256** (Blackman and Vigna), its 256-bit state filled from the seed by splitmix64.
// Fast (a few instructions per draw), passes BigCrush, and reproducible: one seed gives the
// same loader data and the same run inputs on every machine and compiler.
// `uniform` is exact (Lemire's multiply-and-reject, no modulo bias); `unit` has 53 random bits.
// `split` hands out an independent stream (one per terminal or loader worker): the child is
// seeded, through splitmix64, by a draw of the parent, so children of one parent differ and the
// parent's own sequence stays reproducible.
// Lifetime: a plain value, copyable (a copy replays the same sequence).
// Thread-safety: none; give each thread or terminal its own rng (see `split`).
#pragma once

#include <array>
#include <cstdint>

namespace tpcc::random {

class rng {
 public:
  explicit rng(std::uint64_t seed) noexcept;

  // The next 64 random bits.
  std::uint64_t next() noexcept {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform in [lo, hi], both inclusive, every value equally likely. Requires lo <= hi.
  std::int64_t uniform(std::int64_t lo, std::int64_t hi) noexcept;

  // Uniform in [0, 1), a multiple of 2^-53.
  double unit() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // A new generator whose stream is independent of this one; advances this one by one draw.
  [[nodiscard]] rng split() noexcept { return rng{next()}; }

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept {
    return (x << k) | (x >> (64 - k));
  }
  std::uint64_t bounded(std::uint64_t range) noexcept;

  std::array<std::uint64_t, 4> state_{};
};

// A seed for runs without --seed: the wall clock in nanoseconds mixed with std::random_device.
// Log it so the run can be replayed.
[[nodiscard]] std::uint64_t seed_from_time();

}  // namespace tpcc::random
