// SPDX-License-Identifier: Apache-2.0
// bench/forkjoin/skynet.cpp: the skynet benchmark (github atemerev/skynet) as the
// runtime-benchmarks suite runs it: a tree of depth D where every node has 10 children and each
// leaf returns its number; written with shoal's range form over a view that makes the 10 children,
// `co_await when_all(iota(0, 10) | transform(child))`, as TooManyCooks' program is.
// Usage: forkjoin_skynet [threads] [depth]   (the suite's depth: 8, 10^8 leaves)
#include <cstdio>
#include <cstdlib>
#include <ranges>

#include "forkjoin/run.hpp"
#include "shoal/when_all.hpp"

namespace {

shoal::task<std::size_t> skynet_one(std::size_t base, std::size_t depth, std::size_t max_depth) {
  if (depth == max_depth) co_return base;
  std::size_t offset = 1;
  for (std::size_t i = 0; i < max_depth - depth - 1; ++i) offset *= 10;
  auto children =
      std::views::iota(std::size_t{0}, std::size_t{10}) | std::views::transform([=](std::size_t i) {
        return skynet_one(base + offset * i, depth + 1, max_depth);
      });
  std::size_t count = 0;
  for (std::size_t v : co_await shoal::when_all(children)) count += v;
  co_return count;
}

shoal::task<void> skynet(std::size_t depth) {
  const std::size_t count = co_await skynet_one(0, 0, depth);
  std::size_t leaves = 1;
  for (std::size_t i = 0; i < depth; ++i) leaves *= 10;
  const std::size_t expected = leaves * (leaves - 1) / 2;
  if (count != expected) std::printf("ERROR: wrong result - %zu\n", count);
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t depth = argc > 2 ? static_cast<std::size_t>(std::atoi(argv[2])) : 8;
  return forkjoin::run(
      forkjoin::threads_arg(argc, argv, 1), [] { return skynet(6); },
      [depth] { return skynet(depth); });
}
