// SPDX-License-Identifier: Apache-2.0
// frame_peak.hpp: how many coroutine frames are alive at once, and the most ever, on any thread.
//
// Pass a peak_probe by value to each coroutine of a fork tree: the copy in the frame counts the
// frame as live for exactly as long as the frame exists (a moved-from argument counts too, for
// the moment the call takes), so `peak` is the most frames alive at once. Fork trees that unfold
// depth first keep it near their depth; breadth first, near their width.
// Thread-safety: any thread (relaxed atomics: read the totals after the tree has ended).
#pragma once

#include <atomic>

namespace shoal::testing {

struct frame_peak {
  std::atomic<long> live{0};
  std::atomic<long> peak{0};
};

class peak_probe {
 public:
  explicit peak_probe(frame_peak& c) noexcept : c_(&c) { up(); }
  peak_probe(peak_probe&& other) noexcept : c_(other.c_) { up(); }
  peak_probe(const peak_probe&) = delete;
  peak_probe& operator=(const peak_probe&) = delete;
  peak_probe& operator=(peak_probe&&) = delete;
  ~peak_probe() { c_->live.fetch_sub(1, std::memory_order_relaxed); }

 private:
  void up() noexcept {
    const long now = c_->live.fetch_add(1, std::memory_order_relaxed) + 1;
    long seen = c_->peak.load(std::memory_order_relaxed);
    while (now > seen && !c_->peak.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
    }
  }
  frame_peak* c_;
};

}  // namespace shoal::testing
