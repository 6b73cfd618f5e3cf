// SPDX-License-Identifier: Apache-2.0
// What the fiber library tells AddressSanitizer and ThreadSanitizer about its stack switches.
//
// ASan keeps, per thread, the bounds of the stack it believes is running (to unpoison on a throw
// or a noreturn call, and for its fake stacks of use-after-return detection). A switch to
// another stack is bracketed: __sanitizer_start_switch_fiber(save, bottom, size) just before,
// naming the stack being entered, and __sanitizer_finish_switch_fiber(save, &old_bottom,
// &old_size) just after, on the entered stack, which learns the bounds of the stack it came
// from. Leaving a fiber for the last time passes a null `save`, so its fake stack is freed.
// TSan keeps a shadow call stack and a vector clock per *fiber*: __tsan_create_fiber makes one,
// __tsan_switch_to_fiber(f, 0) (just before the jump) makes f the running one and orders what
// ran before the switch before what runs after it, __tsan_destroy_fiber frees it.
// In other builds every function here is empty and inlines away. Each is always inlined, and so
// must be every function of ours that calls __tsan_switch_to_fiber (fiber_link's brackets, the
// driver's resume): TSan would enter such a function on one fiber's shadow stack and leave it on
// the other's, losing a frame of the driver's at every switch.
#pragma once

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define SHOAL_FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SHOAL_FIBER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define SHOAL_FIBER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SHOAL_FIBER_TSAN 1
#endif
#endif
#ifndef SHOAL_FIBER_ASAN
#define SHOAL_FIBER_ASAN 0
#endif
#ifndef SHOAL_FIBER_TSAN
#define SHOAL_FIBER_TSAN 0
#endif

#if SHOAL_FIBER_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#if SHOAL_FIBER_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace shoal::detail {

inline constexpr bool fiber_asan = SHOAL_FIBER_ASAN != 0;
inline constexpr bool fiber_tsan = SHOAL_FIBER_TSAN != 0;

// --- AddressSanitizer --------------------------------------------------------------------------

[[gnu::always_inline]] inline void asan_start_switch([[maybe_unused]] void** fake_stack_save,
                                                     [[maybe_unused]] const void* bottom,
                                                     [[maybe_unused]] std::size_t size) noexcept {
#if SHOAL_FIBER_ASAN
  __sanitizer_start_switch_fiber(fake_stack_save, bottom, size);
#endif
}

[[gnu::always_inline]] inline void asan_finish_switch(
    [[maybe_unused]] void* fake_stack_save, [[maybe_unused]] const void** old_bottom,
    [[maybe_unused]] std::size_t* old_size) noexcept {
#if SHOAL_FIBER_ASAN
  __sanitizer_finish_switch_fiber(fake_stack_save, old_bottom, old_size);
#endif
}

[[gnu::always_inline]] inline void asan_unpoison([[maybe_unused]] void* begin,
                                                 [[maybe_unused]] std::size_t size) noexcept {
#if SHOAL_FIBER_ASAN
  __asan_unpoison_memory_region(begin, size);
#endif
}

// --- ThreadSanitizer ---------------------------------------------------------------------------

[[nodiscard, gnu::always_inline]] inline void* tsan_create_fiber() noexcept {
#if SHOAL_FIBER_TSAN
  return __tsan_create_fiber(0);
#else
  return nullptr;
#endif
}

[[gnu::always_inline]] inline void tsan_destroy_fiber([[maybe_unused]] void* fiber) noexcept {
#if SHOAL_FIBER_TSAN
  __tsan_destroy_fiber(fiber);
#endif
}

[[nodiscard, gnu::always_inline]] inline void* tsan_current_fiber() noexcept {
#if SHOAL_FIBER_TSAN
  return __tsan_get_current_fiber();
#else
  return nullptr;
#endif
}

[[gnu::always_inline]] inline void tsan_switch_to([[maybe_unused]] void* fiber) noexcept {
#if SHOAL_FIBER_TSAN
  __tsan_switch_to_fiber(fiber, 0);
#endif
}

inline void tsan_set_name([[maybe_unused]] void* fiber,
                          [[maybe_unused]] const char* name) noexcept {
#if SHOAL_FIBER_TSAN
  __tsan_set_fiber_name(fiber, name);
#endif
}

}  // namespace shoal::detail
