// SPDX-License-Identifier: Apache-2.0
// shoal/detail/subpool.hpp: the awaiter and slot behind shoal/subpool.hpp.
//
// A waiter lives in the awaiting coroutine's frame: the subpool links it into the FIFO of its
// priority while no slot is free, and posts its coroutine to the pool when it admits it.
#pragma once

#include <coroutine>
#include <cstdint>
#include <utility>

#include "shoal/detail/join_point.hpp"
#include "shoal/detail/task_env.hpp"

namespace shoal {
class subpool;
enum class priority : std::uint8_t;
}  // namespace shoal

namespace shoal::detail {

// A slot of a subpool: released (letting the next waiter in) when destroyed. Move-only.
class subpool_slot {
 public:
  subpool_slot() noexcept = default;
  explicit subpool_slot(subpool* owner) noexcept : owner_(owner) {}
  subpool_slot(subpool_slot&& other) noexcept : owner_(std::exchange(other.owner_, nullptr)) {}
  subpool_slot& operator=(subpool_slot&& other) noexcept {
    if (this != &other) {
      reset();
      owner_ = std::exchange(other.owner_, nullptr);
    }
    return *this;
  }
  subpool_slot(const subpool_slot&) = delete;
  subpool_slot& operator=(const subpool_slot&) = delete;
  ~subpool_slot() { reset(); }

  explicit operator bool() const noexcept { return owner_ != nullptr; }
  // Gives the slot back now.
  void reset() noexcept;

 private:
  subpool* owner_ = nullptr;
};

class subpool_waiter {
 public:
  subpool_waiter(subpool& owner, priority p) noexcept : owner_(&owner), priority_(p) {}

  bool await_ready() const noexcept { return false; }
  // std::bad_alloc (before suspending) when a bound when_all child unbinds: its private env.
  template <class Promise>
  void await_suspend(std::coroutine_handle<Promise> h) {
    rebind_chain(h, nullptr);  // a subpool job runs unbound
    h_ = h;
    enter();
  }
  subpool_slot await_resume() const noexcept { return subpool_slot(owner_); }

 private:
  friend class shoal::subpool;
  void enter() noexcept;

  subpool* owner_;
  priority priority_;
  std::coroutine_handle<> h_;
  subpool_waiter* next_ = nullptr;  // the FIFO of its priority
  std::uint64_t enqueued_at_ = 0;   // the subpool's admission count when it started waiting
  std::uint64_t ticket_ = 0;        // arrival order among all waiters (older: smaller)
};

}  // namespace shoal::detail
