// SPDX-License-Identifier: Apache-2.0
// shoal/detail/host_stop_callback.hpp: the std::stop_callback a batched call holds while it hosts
// its batch's callback for a token (batcher_call.hpp, bound_batcher_call.hpp), made and destroyed
// explicitly.
//
// What: room for one std::stop_callback<Fn> in the awaiter and a flag; emplace makes it, reset
// destroys it (out of line, only when made). Unlike a std::optional it has nothing to do in its
// destructor, which runs in every caller's frame although only a host ever makes one: the
// batchers reset it before the awaiter goes (the flush, or the host's own resumption), as they did
// with the optional. Destroying it while made is a bug (asserted in debug builds).
//
// Thread-safety: emplace and reset on one thread (the host's executor); the callback itself runs
// on whichever thread requests the stop, as std::stop_callback says, and reset waits for it.
#pragma once

#include <cassert>
#include <cstddef>
#include <new>
#include <stop_token>
#include <type_traits>
#include <utility>

namespace shoal::detail {

template <class Fn>
class host_stop_callback {
  using callback = std::stop_callback<Fn>;

 public:
  host_stop_callback() noexcept = default;
  host_stop_callback(const host_stop_callback&) = delete;
  host_stop_callback& operator=(const host_stop_callback&) = delete;
  ~host_stop_callback() { assert(!made_ && "a host's stop callback outlived its reset"); }

  // Registers fn on token (it may run at once, on this thread, when a stop was requested).
  void emplace(const std::stop_token& token, Fn fn) noexcept {
    static_assert(std::is_nothrow_constructible_v<callback, const std::stop_token&, Fn>);
    ::new (static_cast<void*>(storage_)) callback(token, std::move(fn));
    made_ = true;
  }
  // Deregisters it, if made: returns once a run of it on another thread has returned, and none
  // can start afterwards.
  void reset() noexcept {
    if (made_) [[unlikely]] {
      destroy();
    }
  }

 private:
  [[gnu::noinline]] void destroy() noexcept {
    std::launder(reinterpret_cast<callback*>(storage_))->~callback();
    made_ = false;
  }

  alignas(callback) std::byte storage_[sizeof(callback)];
  bool made_ = false;
};

}  // namespace shoal::detail
