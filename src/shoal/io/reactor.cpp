// SPDX-License-Identifier: Apache-2.0
// The epoll reactor (shoal/detail/reactor.hpp).
#include "shoal/detail/reactor.hpp"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <system_error>

namespace shoal::detail {
namespace {

constexpr std::size_t max_events = 128;
constexpr std::uint32_t watched_events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
constexpr std::uint32_t read_events = EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR | EPOLLPRI;
constexpr std::uint32_t write_events = EPOLLOUT | EPOLLHUP | EPOLLERR;
constexpr std::uint32_t ended_events = EPOLLRDHUP | EPOLLHUP | EPOLLERR;

// Any address unique to the calling thread.
const void* this_thread_id() noexcept {
  static thread_local const char marker = 0;
  return &marker;
}

[[noreturn]] void fail(const char* what) {
  throw std::system_error(errno, std::generic_category(), what);
}

// epoll_pwait2 takes a nanosecond timeout; kernels before 5.11 lack it (ENOSYS).
std::atomic<bool> have_pwait2{true};

}  // namespace

reactor::reactor() {
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  if (epoll_fd_ < 0) fail("shoal: epoll_create1");
  wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (wake_fd_ < 0) {
    close(epoll_fd_);
    fail("shoal: eventfd");
  }
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLET;
  ev.data.ptr = nullptr;  // the wake-up descriptor: no registration
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &ev) != 0) {
    close(wake_fd_);
    close(epoll_fd_);
    fail("shoal: epoll_ctl(eventfd)");
  }
}

reactor::~reactor() {
  free_retired();
  close(wake_fd_);
  close(epoll_fd_);
}

void reactor::set_owner_thread() noexcept {
  owner_thread_.store(this_thread_id(), std::memory_order_relaxed);
}

bool reactor::on_owner_thread() const noexcept {
  return owner_thread_.load(std::memory_order_relaxed) == this_thread_id();
}

io_registration* reactor::add(int fd) {
  auto* reg = new io_registration;
  reg->fd = fd;
  epoll_event ev{};
  ev.events = watched_events;
  ev.data.ptr = reg;
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev) != 0) {
    const int error = errno;
    delete reg;
    throw std::system_error(error, std::generic_category(), "shoal: epoll_ctl(ADD)");
  }
  registered_.fetch_add(1, std::memory_order_relaxed);
  return reg;
}

void reactor::drop(io_registration* reg) noexcept {
  epoll_event ev{};
  // The descriptor may already be closed (then the kernel dropped it itself): ignore errors.
  (void)epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, reg->fd, &ev);
  registered_.fetch_sub(1, std::memory_order_relaxed);
  if (on_owner_thread()) {
    delete reg;  // no poll is dispatching on this thread now, and none will see it again
    return;
  }
  const mutex_lock lock(retired_mutex_);
  retired_.push_back(reg);
  has_retired_.store(true, std::memory_order_release);
}

void reactor::free_retired() noexcept {
  if (!has_retired_.load(std::memory_order_acquire)) return;
  const mutex_lock lock(retired_mutex_);
  for (io_registration* reg : retired_) delete reg;
  retired_.clear();
  has_retired_.store(false, std::memory_order_relaxed);
}

std::size_t reactor::poll(int timeout_ms, const void* timeout_ts) noexcept {
  free_retired();  // the previous poll's events are all dispatched: nothing refers to them
  // Not zeroed: the kernel fills the first n, and only those are read (1.5 KiB per poll saved).
  std::array<epoll_event, max_events> events;
  int n = -1;
  if (timeout_ts != nullptr && have_pwait2.load(std::memory_order_relaxed)) {
    n = epoll_pwait2(epoll_fd_, events.data(), max_events, static_cast<const timespec*>(timeout_ts),
                     nullptr);
    if (n < 0 && errno == ENOSYS) have_pwait2.store(false, std::memory_order_relaxed);
  }
  if (n < 0 && (timeout_ts == nullptr || !have_pwait2.load(std::memory_order_relaxed))) {
    n = epoll_wait(epoll_fd_, events.data(), max_events, timeout_ms);
  }
  if (n <= 0) return 0;  // timeout, or EINTR: callers recheck their queues either way
  for (int i = 0; i < n; ++i) {
    const epoll_event& ev = events[static_cast<std::size_t>(i)];
    auto* reg = static_cast<io_registration*>(ev.data.ptr);
    if (reg == nullptr) {
      std::uint64_t count = 0;
      (void)read(wake_fd_, &count, sizeof count);  // re-arm the edge
      continue;
    }
    // relaxed: published by signal()'s acq_rel CAS, which the waiter or take_ready acquires.
    if ((ev.events & ended_events) != 0) reg->hung_up.store(true, std::memory_order_relaxed);
    if ((ev.events & read_events) != 0) reg->read.signal();
    if ((ev.events & write_events) != 0) reg->write.signal();
  }
  return static_cast<std::size_t>(n);
}

std::size_t reactor::poll_now() noexcept {
  const timespec zero{};
  return poll(0, &zero);
}

void reactor::wait(std::optional<time_point> until) noexcept {
  if (!until) {
    poll(-1, nullptr);
    return;
  }
  const auto left = std::chrono::duration_cast<std::chrono::nanoseconds>(*until - clock::now());
  const long long ns = left.count() > 0 ? left.count() : 0;
  const timespec ts{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
  // epoll_wait's fallback resolution is a millisecond: round up so a timer is never early.
  const long long ms = (ns + 999'999) / 1'000'000;
  poll(static_cast<int>(ms > 1'000'000'000 ? 1'000'000'000 : ms), &ts);
}

void reactor::wake() noexcept {
  const std::uint64_t one = 1;
  (void)write(wake_fd_, &one, sizeof one);
}

}  // namespace shoal::detail
