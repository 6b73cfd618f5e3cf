// SPDX-License-Identifier: Apache-2.0
// bench/forkjoin/matmul.cpp: recursive blocked matrix multiplication C += A x B of N x N ints
// (N a power of two), as the runtime-benchmarks suite runs it: a block of 32 or less is
// multiplied with three loops, a larger one is split in four quadrants and the eight quadrant
// products run as two `co_await when_all(...)` of four (the second writes the same quadrants of
// C as the first, so they may not overlap). The result is checked (every entry of C is N).
// Usage: forkjoin_matmul N [threads]   (the suite's N: 2048)
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "forkjoin/run.hpp"
#include "shoal/when_all.hpp"

namespace {

void multiply_block(const int* a, const int* b, int* c, int n, int stride) {
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < n; ++k) {
      const int aik = a[i * stride + k];
      for (int j = 0; j < n; ++j) c[i * stride + j] += aik * b[k * stride + j];
    }
  }
}

shoal::task<void> matmul(const int* a, const int* b, int* c, int n, int stride) {
  if (n <= 32) {
    multiply_block(a, b, c, n, stride);
    co_return;
  }
  const int h = n / 2;
  const int down = h * stride;
  co_await shoal::when_all(matmul(a, b, c, h, stride), matmul(a, b + h, c + h, h, stride),
                           matmul(a + down, b, c + down, h, stride),
                           matmul(a + down, b + h, c + down + h, h, stride));
  co_await shoal::when_all(matmul(a + h, b + down, c, h, stride),
                           matmul(a + h, b + down + h, c + h, h, stride),
                           matmul(a + down + h, b + down, c + down, h, stride),
                           matmul(a + down + h, b + down + h, c + down + h, h, stride));
}

shoal::task<void> run_matmul(int n) {
  std::vector<int> a(static_cast<std::size_t>(n) * n, 1);
  std::vector<int> b(a.size(), 1);
  std::vector<int> c(a.size(), 0);
  co_await matmul(a.data(), b.data(), c.data(), n, n);
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (c[i] != n) {
      std::printf("ERROR: wrong result at %zu: %d, expected %d\n", i, c[i], n);
      std::exit(1);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::printf("Usage: forkjoin_matmul <matrix size (power of 2)> [threads]\n");
    return 0;
  }
  const int n = std::atoi(argv[1]);
  if (n < 1 || (n & (n - 1)) != 0) {
    std::printf("forkjoin_matmul: the size must be a power of two\n");
    return 2;
  }
  return forkjoin::run(
      forkjoin::threads_arg(argc, argv, 2), [n] { return run_matmul(n); },
      [n] { return run_matmul(n); });
}
