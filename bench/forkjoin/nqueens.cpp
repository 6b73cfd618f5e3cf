// SPDX-License-Identifier: Apache-2.0
// bench/forkjoin/nqueens.cpp: count the placements of N queens, one child per safe square of the
// next row, as the runtime-benchmarks suite runs it (N = 14); written with shoal's range form over
// a view that makes the children, `co_await when_all(iota(0, n) | filter(safe) |
// transform(child))`, as TooManyCooks' program is.
// Usage: forkjoin_nqueens [threads] [N]
#include <array>
#include <cstdio>
#include <cstdlib>
#include <ranges>

#include "forkjoin/run.hpp"
#include "shoal/when_all.hpp"

namespace {

constexpr std::array<int, 19> answers = {
    0,   1,     0,      0,      2,       10,        4,          40,         92,         352,
    724, 2'680, 14'200, 73'712, 365'596, 2'279'184, 14'772'512, 95'815'104, 666'090'624};
constexpr std::size_t max_n = 18;

using board = std::array<char, max_n>;

bool safe(const board& buf, int row, char q) {
  for (int x = 0; x < row; x++) {
    const char p = buf[x];
    if (q == p || q == p - (row - x) || q == p + (row - x)) return false;
  }
  return true;
}

shoal::task<int> nqueens(int n, int row, board buf) {
  if (row == n) co_return 1;
  auto children =
      std::views::iota(0, n) |
      std::views::filter([&buf, row](int y) { return safe(buf, row, static_cast<char>(y)); }) |
      std::views::transform([&buf, n, row](int y) {
        buf[row] = static_cast<char>(y);
        return nqueens(n, row + 1, buf);
      });
  int count = 0;
  for (int v : co_await shoal::when_all(children)) count += v;
  co_return count;
}

shoal::task<void> solve(int n, bool print) {
  const int result = co_await nqueens(n, 0, board{});
  if (result != answers[n]) std::printf("error: expected %d, got %d\n", answers[n], result);
  if (print) std::printf("output: %d\n", result);
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 2 ? std::atoi(argv[2]) : 14;
  if (n < 1 || n > static_cast<int>(max_n)) {
    std::printf("forkjoin_nqueens: N must be 1-%zu\n", max_n);
    return 2;
  }
  return forkjoin::run(
      forkjoin::threads_arg(argc, argv, 1), [n] { return solve(n, false); },
      [n] { return solve(n, true); });
}
