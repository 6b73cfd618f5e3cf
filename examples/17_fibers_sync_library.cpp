// SPDX-License-Identifier: Apache-2.0
// 17_fibers_sync_library: a synchronous library, unchanged, driven by 2,000 fibers on 2 workers.
//
// Shows: `sum_lines` is an ordinary blocking-style function that reads through an interface and
// knows nothing of shoal. Each of 2,000 fibers runs it over its own socket through an adapter
// whose read() waits with `shoal::await(watch.readable())`: the fiber is switched out, its worker
// serves the others, and no thread ever blocks. Writers are plain tasks dribbling lines in three
// chunks, a millisecond apart. Checks every sum, and that the pool never needed more than its
// two threads (every fiber stayed on the worker it started on).
#include <shoal/fd_watch.hpp>
#include <shoal/fiber.hpp>
#include <shoal/sleep.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>
#include <shoal/thread_pool.hpp>

#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <latch>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "support/check.hpp"

namespace {

// --- The "library": synchronous, callback-free, no shoal in sight ---------------------------
struct byte_source {
  virtual ~byte_source() = default;
  virtual std::size_t read(char* buffer, std::size_t size) = 0;  // blocks; 0 at the end
};

long sum_lines(byte_source& in) {  // the sum of the newline-terminated numbers read
  std::array<char, 16> buffer{};
  long sum = 0;
  long number = 0;
  while (const std::size_t n = in.read(buffer.data(), buffer.size())) {
    for (std::size_t i = 0; i < n; ++i) {
      if (buffer[i] == '\n')
        sum += std::exchange(number, 0);
      else
        number = number * 10 + (buffer[i] - '0');
    }
  }
  return sum;
}

// --- The adapter: a blocking read, on a fiber, that waits in the reactor -----------------------
class fiber_socket final : public byte_source {
 public:
  explicit fiber_socket(int fd) : fd_(fd), watch_(fd) {}
  std::size_t read(char* buffer, std::size_t size) override {
    for (;;) {
      const ssize_t got = ::read(fd_, buffer, size);
      if (got >= 0) return static_cast<std::size_t>(got);
      if (errno != EAGAIN) throw std::runtime_error("read failed");
      if (!shoal::await(watch_.readable())) throw std::runtime_error("cancelled");
    }
  }

 private:
  int fd_;
  shoal::fd_watch watch_;  // registered with the reactor of the fiber's worker
};

// Writes "i\n", "1\n" .. "9\n" in three chunks, 1 ms apart, then ends the stream.
shoal::task<> writer(int fd, int i) {
  const std::string lines = std::to_string(i) + "\n1\n2\n3\n4\n5\n6\n7\n8\n9\n";
  const std::size_t third = lines.size() / 3;
  for (std::size_t at = 0; at < lines.size(); at += third) {
    co_await shoal::sleep_for(std::chrono::milliseconds(1));
    const std::string chunk = lines.substr(at, third);
    if (::write(fd, chunk.data(), chunk.size()) != static_cast<ssize_t>(chunk.size()))
      throw std::runtime_error("write failed");
  }
  ::shutdown(fd, SHUT_WR);
}

}  // namespace

int main() {
  constexpr int fibers = 2000;
  std::printf("17_fibers_sync_library: %d fibers run a blocking-style parser, 2 workers\n", fibers);
  std::vector<std::array<int, 2>> sockets(fibers);
  for (auto& s : sockets) {
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, s.data()) != 0) {
      examples::check(false, "socketpair (raise ulimit -n?)");
      return 1;
    }
  }
  std::vector<long> sums(fibers, -1);
  std::atomic<int> moved{0};
  std::latch finished(fibers);
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  for (int i = 0; i < fibers; ++i) {
    pool.spawn(shoal::fiber([&, i] {
      const shoal::executor* home = shoal::executor::current();
      fiber_socket in(sockets[i][0]);
      sums[i] = sum_lines(in);  // plain call; suspends the fiber at every empty read
      if (shoal::executor::current() != home) moved.fetch_add(1);
      finished.count_down();
    }));
    pool.spawn(writer(sockets[i][1], i));
  }
  finished.wait();
  shoal::sync_wait(pool.stop());
  for (auto& s : sockets) {
    ::close(s[0]);
    ::close(s[1]);
  }

  bool all_right = true;
  for (int i = 0; i < fibers; ++i) all_right = all_right && sums[i] == i + 45;
  const shoal::fiber_stack_stats stacks = shoal::fiber_stacks();
  std::printf("  stacks: %zu mapped for %d fibers (%zu reuses), %zu live at the end\n",
              stacks.mapped_total, fibers, stacks.reused_total, stacks.live);
  examples::check(all_right, "every fiber's synchronous parse returned its sum");
  examples::check(moved.load() == 0, "every fiber stayed on the worker it started on");
  examples::check(stacks.live == 0, "every stack went back to the pool");
  return examples::finish("17_fibers_sync_library");
}
