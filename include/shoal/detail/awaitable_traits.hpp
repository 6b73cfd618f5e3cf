// SPDX-License-Identifier: Apache-2.0
// shoal/detail/awaitable_traits.hpp: what `co_await x` yields, computed without awaiting.
#pragma once

#include <type_traits>
#include <utility>

namespace shoal::detail {

template <class A>
decltype(auto) get_awaiter(A&& a) {
  if constexpr (requires { std::forward<A>(a).operator co_await(); }) {
    return std::forward<A>(a).operator co_await();
  } else if constexpr (requires { operator co_await(std::forward<A>(a)); }) {
    return operator co_await(std::forward<A>(a));
  } else {
    return std::forward<A>(a);
  }
}

template <class A>
using await_result_t = decltype(get_awaiter(std::declval<A>()).await_resume());

}  // namespace shoal::detail
