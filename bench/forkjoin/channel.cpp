// SPDX-License-Identifier: Apache-2.0
// bench/forkjoin/channel.cpp: the runtime-benchmarks suite's `channel` program (github
// tzcnt/runtime-benchmarks, cpp/*/channel.cpp) written with shoal::channel: P producers send
// the numbers 0..N-1 (N = 10,000,000, split evenly), C consumers receive until the channel is
// closed and drained; the count and the sum are checked. As in the suite, P = C = threads / 2
// (at least 1), one warm-up round, then one timed round.
// shoal's channel is bounded (the suite's TooManyCooks channel is not): capacity 1,024 values.
// Usage: forkjoin_channel [threads] [elements]   (the suite: 2 threads here, 10,000,000 elements)
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "forkjoin/run.hpp"
#include "shoal/channel.hpp"
#include "shoal/when_all.hpp"

namespace {

constexpr std::size_t capacity = 1024;

struct tally {
  std::size_t count = 0;
  std::size_t sum = 0;
};

shoal::task<void> produce(shoal::channel<std::size_t>& ch, std::size_t first, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    if (!co_await ch.send(first + i)) std::printf("ERROR: the channel refused a value\n");
  }
}

shoal::task<tally> consume(shoal::channel<std::size_t>& ch) {
  tally t;
  while (auto v = co_await ch.receive()) {
    ++t.count;
    t.sum += *v;
  }
  co_return t;
}

// Every producer's values through one channel to every consumer; the total checked.
shoal::task<std::size_t> one_round(std::size_t sides, std::size_t elements) {
  shoal::channel<std::size_t> ch(capacity);
  std::vector<shoal::task<tally>> consumers;
  consumers.reserve(sides);
  for (std::size_t i = 0; i < sides; ++i) consumers.push_back(consume(ch));
  auto producers = [&]() -> shoal::task<void> {
    std::vector<shoal::task<void>> each;
    each.reserve(sides);
    std::size_t first = 0;
    for (std::size_t i = 0; i < sides; ++i) {
      const std::size_t count = elements / sides + (i < elements % sides ? 1 : 0);
      each.push_back(produce(ch, first, count));
      first += count;
    }
    co_await shoal::when_all(std::move(each));
    ch.close();  // every value is sent: the consumers drain the buffer and end
  };
  auto received = [&]() -> shoal::task<std::vector<tally>> {
    co_return co_await shoal::when_all(std::move(consumers));
  };
  auto [sent, tallies] = co_await shoal::when_all(producers(), received());
  static_cast<void>(sent);
  tally total;
  for (const tally& t : tallies) {
    total.count += t.count;
    total.sum += t.sum;
  }
  const std::size_t expected = elements * (elements - 1) / 2;
  if (total.count != elements || total.sum != expected) {
    std::printf("ERROR: received %zu values summing to %zu, expected %zu summing to %zu\n",
                total.count, total.sum, elements, expected);
  }
  co_return total.sum;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t threads = forkjoin::threads_arg(argc, argv, 1);
  const std::size_t elements =
      argc > 2 ? static_cast<std::size_t>(std::atoll(argv[2])) : std::size_t{10'000'000};
  const std::size_t sides = threads / 2 == 0 ? 1 : threads / 2;
  std::printf("producers: %zu\nconsumers: %zu\n", sides, sides);
  return forkjoin::run(
      threads, [&] { return one_round(sides, elements); },
      [&]() -> shoal::task<void> {
        std::printf("output: %zu\n", co_await one_round(sides, elements));
      });
}
