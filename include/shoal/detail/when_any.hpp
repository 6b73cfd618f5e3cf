// SPDX-License-Identifier: Apache-2.0
// shoal/detail/when_any.hpp: the awaiter behind shoal/when_any.hpp.
//
// Launching and joining are join_all's (detail/join_all.hpp) with the first child to end
// claiming the result and cancelling the rest; this adds the result: the winner's exception
// rethrown, else its index and value. Every child has ended before await_resume runs; their
// frames (and the losers' values) are destroyed before it returns.
#pragma once

#include <cstddef>
#include <exception>
#include <stdexcept>
#include <utility>

#include "shoal/detail/join_all.hpp"

namespace shoal {
template <class T>
struct when_any_result;
}  // namespace shoal

namespace shoal::detail {

template <class T>
when_any_result<T> winner_of(fork_range<T>& children, std::size_t index) {
  return when_any_result<T>{index, children.take_one(index)};
}
template <class... Ts>
typename fork_tuple<Ts...>::one_value winner_of(fork_tuple<Ts...>& children, std::size_t index) {
  return children.take_one(index);
}

template <class Children>
class when_any_awaiter final : public join_all_awaiter<Children> {
 public:
  explicit when_any_awaiter(Children& children) noexcept
      : join_all_awaiter<Children>(children, join_all::stop_on::first_end) {}
  when_any_awaiter(const when_any_awaiter&) = delete;
  when_any_awaiter& operator=(const when_any_awaiter&) = delete;
  ~when_any_awaiter() = default;

  auto await_resume() {
    const ended_children<Children> ended = this->end_children();
    const std::size_t winner = this->end_join();
    if (winner == this->none) throw std::invalid_argument("shoal: when_any of no tasks");
    if (const std::exception_ptr error = ended->error(winner)) std::rethrow_exception(error);
    return winner_of(*ended, winner);
  }
};

}  // namespace shoal::detail
