// SPDX-License-Identifier: Apache-2.0
// The futex behind parker.hpp (Linux).
#include "pool/parker.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <ctime>

namespace shoal::detail {
namespace {

constexpr std::int32_t empty = 0;
constexpr std::int32_t notified = 1;
constexpr std::int32_t parked = -1;
constexpr std::int32_t parked_in_reactor = -2;

void futex_wait(std::atomic<std::int32_t>& word, std::int32_t expected,
                const timespec* timeout) noexcept {
  syscall(SYS_futex, reinterpret_cast<std::int32_t*>(&word), FUTEX_WAIT_PRIVATE, expected, timeout,
          nullptr, 0);
}

void futex_wake_one(std::atomic<std::int32_t>& word) noexcept {
  syscall(SYS_futex, reinterpret_cast<std::int32_t*>(&word), FUTEX_WAKE_PRIVATE, 1, nullptr,
          nullptr, 0);
}

}  // namespace

void parker::park(std::optional<time_point> until) noexcept {
  if (io_->active()) {
    park_in_reactor(until);
  } else {
    park_on_futex(until);
  }
}

void parker::park_in_reactor(std::optional<time_point> until) noexcept {
  std::int32_t expected = empty;
  // acq_rel: pairs with unpark's release exchange (on failure, the token's work is visible).
  if (!state_.compare_exchange_strong(expected, parked_in_reactor, std::memory_order_acq_rel,
                                      std::memory_order_acquire)) {
    // It was notified: consume the token. An exchange, not a store: a second unpark may have
    // left its token since the compare-exchange read the first, and consuming it must acquire
    // that unpark's release too (pairs with unpark's exchange), or the work it announced could
    // be invisible to the queue checks that follow while its token is gone.
    state_.exchange(empty, std::memory_order_acquire);
    return;
  }
  io_->wait(until);  // returns on an event, the eventfd written by unpark, or the timeout
  // acquire: pairs with unpark's release exchange; consumes a token that raced in.
  state_.exchange(empty, std::memory_order_acquire);
}

void parker::park_on_futex(std::optional<time_point> until) noexcept {
  // acquire: pairs with unpark's release exchange, so work posted before unpark is visible.
  if (state_.fetch_sub(1, std::memory_order_acquire) == notified) return;  // now empty
  for (;;) {
    timespec ts{};
    const timespec* timeout = nullptr;
    if (until) {
      const auto left = *until - clock::now();
      if (left <= duration::zero()) break;
      const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
      ts.tv_sec = static_cast<time_t>(ns / 1'000'000'000);
      ts.tv_nsec = static_cast<long>(ns % 1'000'000'000);
      timeout = &ts;
    }
    futex_wait(state_, parked, timeout);
    std::int32_t expected = notified;
    // acquire: pairs with unpark's release exchange.
    if (state_.compare_exchange_strong(expected, empty, std::memory_order_acquire)) return;
    if (until && clock::now() >= *until) break;
  }
  // Timed out: back to empty, consuming a token that may have raced in (pairs with unpark).
  state_.exchange(empty, std::memory_order_acquire);
}

void parker::unpark() noexcept {
  // release: pairs with park's acquire; publishes the work posted before this call.
  const std::int32_t previous = state_.exchange(notified, std::memory_order_release);
  if (previous == parked) futex_wake_one(state_);
  if (previous == parked_in_reactor) io_->wake();
}

}  // namespace shoal::detail
