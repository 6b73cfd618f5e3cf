// SPDX-License-Identifier: Apache-2.0
// src/shoal/preheat.cpp: filling frame caches (see shoal/preheat.hpp).
#include "shoal/preheat.hpp"

#include <vector>

#include "shoal/frame_allocator.hpp"
#include "shoal/future.hpp"
#include "shoal/future_run.hpp"

namespace shoal {

void preheat_this_thread(const preheat_options& options) {
  if (!frame_recycling_enabled()) return;
  std::vector<void*> frames;
  frames.reserve(options.frames_per_class);
  for (std::size_t size = frame_size_class_bytes; size <= options.up_to_bytes;
       size += frame_size_class_bytes) {
    try {
      while (frames.size() < options.frames_per_class) frames.push_back(frame_allocate(size));
    } catch (...) {
      for (void* f : frames) frame_deallocate(f, size);
      throw;
    }
    for (void* f : frames) frame_deallocate(f, size);
    frames.clear();
  }
}

task<void> preheat(thread_pool& pool, preheat_options options) {
  std::vector<cancelable_future<int>> done;
  done.reserve(pool.size());
  for (std::size_t k = 0; k < pool.size(); ++k) {
    done.push_back(spawn_future_on(pool, k, [options] {
      preheat_this_thread(options);
      return 0;
    }));
  }
  for (cancelable_future<int>& f : done) co_await f;
  preheat_this_thread(options);
}

}  // namespace shoal
