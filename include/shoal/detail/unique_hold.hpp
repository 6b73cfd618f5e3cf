// SPDX-License-Identifier: Apache-2.0
// shoal/detail/unique_hold.hpp: an owned share of a primitive, given back on destruction.
//
// What: `unique_hold<R>` holds a semaphore permit, a mutex's lock or a gate's admission: it
// calls `release_hold(r)` (a hidden friend of R, found by argument-dependent lookup) when it is
// destroyed or reset. Move-only; an empty hold (default-constructed, moved from, or the result
// of a cancelled wait) holds nothing and converts to false.
// Thread-safety: a hold may be moved to, and released on, another thread.
#pragma once

#include <utility>

namespace shoal::detail {

template <class Resource>
class [[nodiscard]] unique_hold {
 public:
  unique_hold() noexcept = default;
  // Takes ownership of a share of `held` already acquired (nullptr: holds nothing).
  explicit unique_hold(Resource* held) noexcept : held_(held) {}
  unique_hold(unique_hold&& other) noexcept : held_(std::exchange(other.held_, nullptr)) {}
  unique_hold& operator=(unique_hold&& other) noexcept {
    if (this != &other) {
      reset();
      held_ = std::exchange(other.held_, nullptr);
    }
    return *this;
  }
  unique_hold(const unique_hold&) = delete;
  unique_hold& operator=(const unique_hold&) = delete;
  ~unique_hold() { reset(); }

  [[nodiscard]] explicit operator bool() const noexcept { return held_ != nullptr; }
  // Gives the share back now (nothing when empty).
  void reset() noexcept {
    if (Resource* held = std::exchange(held_, nullptr)) release_hold(*held);
  }

 private:
  Resource* held_ = nullptr;
};

}  // namespace shoal::detail
