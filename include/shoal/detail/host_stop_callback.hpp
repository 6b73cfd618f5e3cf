// SPDX-License-Identifier: Apache-2.0
// shoal/detail/host_stop_callback.hpp: the stop callback a batched call holds while it hosts its
// batch's callback for a stop (batcher_call.hpp, bound_batcher_call.hpp), made and destroyed
// explicitly, on a chain's stop_ref.
//
// What: room for one callback and its kind. On a plain token it is a std::stop_callback<Fn>; on
// a fork scope's lazy stop (the children of a when_all, a task_group) a node on the scope's own
// list (lazy_stop::add), so the scope's std::stop_source is never made for it (no allocation).
// emplace makes it, reset destroys it (out of line, only when made). Unlike a std::optional it has
// nothing to do in its destructor, which runs in every caller's frame although only a host ever
// makes one: the batchers reset it before the awaiter goes (the flush, or the host's own
// resumption). Destroying it while made is a bug (asserted in debug builds).
//
// Thread-safety: emplace and reset on one thread (the host's executor); the callback itself runs
// on whichever thread requests the stop (as std::stop_callback says), and reset waits for it.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <new>
#include <stop_token>
#include <type_traits>
#include <utility>

#include "shoal/detail/lazy_stop.hpp"
#include "shoal/detail/stop_ref.hpp"

namespace shoal::detail {

template <class Fn>
class host_stop_callback {
  using callback = std::stop_callback<Fn>;
  struct on_lazy : lazy_stop_node {
    on_lazy(const lazy_stop& s, Fn f) noexcept
        : lazy_stop_node(&run), scope(&s), fn(std::move(f)) {}
    static void run(lazy_stop_node& n) noexcept { static_cast<on_lazy&>(n).fn(); }
    const lazy_stop* scope;
    Fn fn;
  };
  enum class kind : std::uint8_t { none, plain, lazy };

 public:
  host_stop_callback() noexcept = default;
  host_stop_callback(const host_stop_callback&) = delete;
  host_stop_callback& operator=(const host_stop_callback&) = delete;
  ~host_stop_callback() {
    assert(made_ == kind::none && "a host's stop callback outlived its reset");
  }

  // Registers fn on stop (it may run at once, on this thread, when a stop was requested).
  void emplace(stop_ref stop, Fn fn) noexcept {
    static_assert(std::is_nothrow_constructible_v<callback, const std::stop_token&, Fn>);
    static_assert(std::is_nothrow_copy_constructible_v<Fn>);
    if (const lazy_stop* scope = stop.lazy_target()) {
      auto* node = ::new (static_cast<void*>(storage_)) on_lazy(*scope, fn);
      if (scope->add(*node)) {
        made_ = kind::lazy;
      } else {  // stopped already: run it now, as std::stop_callback does
        node->~on_lazy();
        fn();
      }
      return;
    }
    // Not stop.token(): g++ 12 warns (-Wstringop-overflow) on its lazy branch, inlined here.
    ::new (static_cast<void*>(storage_)) callback(*stop.plain_target(), std::move(fn));
    made_ = kind::plain;
  }
  // Deregisters it, if made: returns once a run of it on another thread has returned, and none
  // can start afterwards.
  void reset() noexcept {
    if (made_ != kind::none) [[unlikely]] {
      destroy();
    }
  }

 private:
  [[gnu::noinline]] void destroy() noexcept {
    if (made_ == kind::lazy) {
      auto* node = std::launder(reinterpret_cast<on_lazy*>(storage_));
      node->scope->remove(*node);
      node->~on_lazy();
    } else {
      std::launder(reinterpret_cast<callback*>(storage_))->~callback();
    }
    made_ = kind::none;
  }

  static constexpr std::size_t size = sizeof(callback) > sizeof(on_lazy) ? sizeof(callback)
                                                                         : sizeof(on_lazy);
  static constexpr std::size_t align = alignof(callback) > alignof(on_lazy) ? alignof(callback)
                                                                            : alignof(on_lazy);
  alignas(align) std::byte storage_[size];
  kind made_ = kind::none;
};

}  // namespace shoal::detail
