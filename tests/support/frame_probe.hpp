// SPDX-License-Identifier: Apache-2.0
// frame_probe.hpp: a parameter that says when the coroutine frame holding it was destroyed.
//
// Pass one by value to a coroutine: the copy in the frame increments `*destroyed` when the frame
// is destroyed; the moved-from argument at the call site does nothing. So a test can assert that
// a child's frame is gone at a precise point (structured concurrency: before the await returns).
#pragma once

#include <utility>

namespace shoal::testing {

class frame_probe {
 public:
  explicit frame_probe(int& destroyed) noexcept : destroyed_(&destroyed) {}
  frame_probe(frame_probe&& other) noexcept
      : destroyed_(std::exchange(other.destroyed_, nullptr)) {}
  frame_probe(const frame_probe&) = delete;
  frame_probe& operator=(const frame_probe&) = delete;
  frame_probe& operator=(frame_probe&&) = delete;
  ~frame_probe() {
    if (destroyed_ != nullptr) ++*destroyed_;
  }

 private:
  int* destroyed_;
};

}  // namespace shoal::testing
