// SPDX-License-Identifier: Apache-2.0
// fake_handle.hpp: distinct, never-resumed coroutine handles made from indexes, for the tests of
// the queues and deques that store handles (only their addresses matter there).
#pragma once

#include <coroutine>
#include <cstdint>

namespace shoal::testing {

inline std::coroutine_handle<> as_handle(std::uintptr_t i) {
  return std::coroutine_handle<>::from_address(
      reinterpret_cast<void*>(i << 4));  // NOLINT(performance-no-int-to-ptr)
}

inline std::uintptr_t as_index(std::coroutine_handle<> h) {
  return reinterpret_cast<std::uintptr_t>(h.address()) >> 4;
}

}  // namespace shoal::testing
