// SPDX-License-Identifier: Apache-2.0
// shoal/detail/when_all.hpp: the awaiter behind shoal/when_all.hpp.
//
// Launching and joining are join_all's (detail/join_all.hpp); this adds the result: the first
// failure's exception rethrown, else every value in order. The ended children's frames are
// destroyed before await_resume returns (ended_children, detail/join_all.hpp).
#pragma once

#include <cstddef>
#include <exception>
#include <utility>

#include "shoal/detail/join_all.hpp"

namespace shoal::detail {

template <class Children>
class when_all_awaiter final : public join_all_awaiter<Children> {
 public:
  explicit when_all_awaiter(Children& children) noexcept
      : join_all_awaiter<Children>(children, join_all::stop_on::first_failure) {}
  when_all_awaiter(const when_all_awaiter&) = delete;
  when_all_awaiter& operator=(const when_all_awaiter&) = delete;
  ~when_all_awaiter() = default;

  typename Children::values await_resume() {
    const ended_children<Children> ended = this->end_children();
    const std::size_t failed = this->end_join();
    if (failed != this->none) std::rethrow_exception(ended->error(failed));
    return ended->take_all();
  }
};

}  // namespace shoal::detail
