// SPDX-License-Identifier: Apache-2.0
// shoal/detail/stop_ref.hpp: a chain's stop token, by reference (see detail/task_env.hpp).
//
// What: one word pointing either at a std::stop_token that lives in the frame or scope that set
// it (with_stop_token, with_deadline, a spawned chain's root), or at a lazy_stop
// (detail/lazy_stop.hpp, a fork scope's). The member functions are defined in lazy_stop.hpp,
// which every user reaches through task_env.hpp.
// Thread-safety: a stop_ref is a value; what it points at is thread-safe as std::stop_token is.
#pragma once

#include <cstdint>
#include <stop_token>

namespace shoal::detail {

// A token that is never stopped, for envs that have none.
inline const std::stop_token no_stop_token{};

class lazy_stop;

// The chain's stop token, by reference. The token lives in the frame or scope that set it
// (with_stop_token, with_deadline, a fork scope: when_all, when_any, task_group), which
// outlives every task that runs under it; so copying an env (each when_all child gets one)
// costs no reference count. A fork scope's stop is a lazy_stop (detail/lazy_stop.hpp): a flag
// and a link to the parent's stop, made into a std::stop_token only when someone asks for the
// token itself (to register a std::stop_callback), so a fork tree that never waits on anything
// stoppable allocates no stop state. One word: the low bit tells the two kinds apart.
class stop_ref {
 public:
  stop_ref() noexcept = default;
  explicit stop_ref(const std::stop_token& token) noexcept
      : bits_(reinterpret_cast<std::uintptr_t>(&token)) {}
  explicit stop_ref(const lazy_stop& lazy) noexcept
      : bits_(reinterpret_cast<std::uintptr_t>(&lazy) | lazy_bit) {}

  [[nodiscard]] inline bool stop_requested() const noexcept;
  [[nodiscard]] inline bool stop_possible() const noexcept;
  // The token itself: for a std::stop_callback, a comparison or a copy. For a lazy stop, the
  // first call makes its std::stop_source and may throw std::bad_alloc: ask for it before
  // registering anything (a timer, a place in a wait list) that an exception would leave behind.
  [[nodiscard]] inline const std::stop_token& token() const;
  // The fork scope's stop it refers to, or null for a plain token.
  [[nodiscard]] const lazy_stop* lazy_target() const noexcept {
    return is_lazy() ? &lazy() : nullptr;
  }
  // The plain token it refers to, or null for a fork scope's stop.
  [[nodiscard]] const std::stop_token* plain_target() const noexcept {
    return is_lazy() ? nullptr : &plain();
  }
  // The same stop: one stop_ref, or two plain tokens of one stop state.
  [[nodiscard]] bool same_stop(stop_ref other) const noexcept {
    return bits_ == other.bits_ || (!is_lazy() && !other.is_lazy() && plain() == other.plain());
  }

 private:
  static constexpr std::uintptr_t lazy_bit = 1;
  [[nodiscard]] bool is_lazy() const noexcept { return (bits_ & lazy_bit) != 0; }
  [[nodiscard]] const std::stop_token& plain() const noexcept {
    // NOLINTNEXTLINE(performance-no-int-to-ptr): a tagged pointer, made from a pointer
    return *reinterpret_cast<const std::stop_token*>(bits_);
  }
  [[nodiscard]] const lazy_stop& lazy() const noexcept {
    const std::uintptr_t address = bits_ & ~lazy_bit;
    // NOLINTNEXTLINE(performance-no-int-to-ptr): a tagged pointer, made from a pointer
    return *reinterpret_cast<const lazy_stop*>(address);
  }

  std::uintptr_t bits_ = reinterpret_cast<std::uintptr_t>(&no_stop_token);
};

}  // namespace shoal::detail
