// SPDX-License-Identifier: Apache-2.0
// xoshiro256** seeding and exact bounded draws; see rng.hpp.
#include "random/rng.hpp"

#include <chrono>
#include <cstdint>
#include <random>

namespace tpcc::random {

namespace {

// splitmix64: turns any seed (even 0) into well-mixed, never all-zero state words.
std::uint64_t splitmix64(std::uint64_t& x) noexcept {
  x += 0x9e3779b97f4a7c15ULL;
  std::uint64_t z = x;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

__extension__ typedef unsigned __int128 uint128;

}  // namespace

rng::rng(std::uint64_t seed) noexcept {
  for (auto& word : state_) word = splitmix64(seed);
}

// Lemire, "Fast Random Integer Generation in an Interval" (2019): the high word of
// next() * range is uniform in [0, range) once the low word's biased tail is rejected.
std::uint64_t rng::bounded(std::uint64_t range) noexcept {
  uint128 product = static_cast<uint128>(next()) * range;
  auto low = static_cast<std::uint64_t>(product);
  if (low < range) {
    const std::uint64_t threshold = (0 - range) % range;
    while (low < threshold) {
      product = static_cast<uint128>(next()) * range;
      low = static_cast<std::uint64_t>(product);
    }
  }
  return static_cast<std::uint64_t>(product >> 64);
}

std::int64_t rng::uniform(std::int64_t lo, std::int64_t hi) noexcept {
  const std::uint64_t range = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1;
  // range == 0 means the whole 64-bit span: every value of next() is fair.
  const std::uint64_t offset = range == 0 ? next() : bounded(range);
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + offset);
}

std::uint64_t seed_from_time() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  std::uint64_t x =
      static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count());
  std::random_device device;
  x ^= (static_cast<std::uint64_t>(device()) << 32) | device();
  return splitmix64(x);
}

}  // namespace tpcc::random
