// SPDX-License-Identifier: Apache-2.0
// shoal/detail/fiber_switch.hpp: the fiber's side of a stack switch, inlined into shoal::await.
//
// What: suspend_fiber(wait) switches from the running fiber to its driver, leaving `wait`, and
// returns once the driver switches back. It is inline (always) so that the jump is made from
// the frame that called shoal::await: the code that runs after the fiber is switched back in
// returns through no frame entered before the switch. A return across a switch is one the
// CPU's return-stack predictor always misses (it holds the other stack's calls); the out-of-line
// suspend this replaces cost one such miss per suspension. Both sides enter jump_fcontext
// without a call (fiber_jump), so neither leaves a stale entry on that predictor for the other
// (docs/design/fibers.md, "The switch path").
// The running fiber is found through a thread-local read by an out-of-line function
// (running_fiber_link) *before* the jump; after it, only `link` (the fiber's own context, which
// does not move) is used, so no thread-local address is cached across a switch, also in a
// fiber that migrates.
// Every switch is bracketed for ASan and TSan (fiber_sanitizers.hpp), here on the fiber's side
// and in the library on the driver's.
//
// Lifetime: a fiber_link is part of its fiber's context (the driver owns it) and outlives every
// suspension. Thread-safety: a fiber and its driver are one chain of execution: one thread at a
// time; the jump orders what ran before it before what runs after it on the other side.
#pragma once

#include <boost/context/detail/fcontext.hpp>

#include <coroutine>
#include <cstddef>
#include <exception>
#include <utility>

#include "shoal/detail/fiber_sanitizers.hpp"
#include "shoal/detail/task.hpp"

namespace shoal::detail {

// Thrown by shoal::await inside a fiber whose driver is being destroyed while the fiber is
// suspended: it unwinds the fiber's stack (running its destructors) to its bottom, where the
// library catches it. Deliberately not a std::exception: a `catch (...)` in fiber code must
// rethrow it (an await after swallowing it throws it again).
struct fiber_unwind {};

// One suspension of a fiber, on the fiber's stack for as long as it waits.
// `suspend` calls await_suspend on `awaiter` with the driver's handle and returns what to run
// next: null to stay suspended, else what the driver's await_suspend returns as is (the
// awaiter's handle, or transfer(driver) when it declined to suspend).
using fiber_driver_handle = std::coroutine_handle<task_promise<void>>;
struct fiber_wait {
  void* awaiter = nullptr;
  std::coroutine_handle<> (*suspend)(void* awaiter, fiber_driver_handle driver) = nullptr;
};

// The part of a fiber's context its own side of a switch uses (the rest is the library's
// fiber_context, which holds one).
struct fiber_link {
  boost::context::detail::fcontext_t driver = nullptr;  // where to jump back, while it runs
  bool unwinding = false;    // its driver is destroying it: every await throws fiber_unwind
  std::exception_ptr error;  // thrown by the await_suspend of its wait: rethrown in the fiber
  // ASan: the fiber's fake stack while it is switched out, and the bounds of the stack that
  // resumed it (the worker thread's, learnt at every resumption: it may be another thread).
  void* fake_stack = nullptr;
  const void* driver_bottom = nullptr;
  std::size_t driver_size = 0;
  // TSan: the fiber that resumed it.
  void* tsan_driver = nullptr;

  // Sanitizer brackets of the fiber side: after arriving on the fiber's stack, before leaving
  // it (`last`: for good, its fake stack is freed). Always inlined: TSan keeps a shadow call
  // stack per fiber, and a function of their own would be entered on the fiber's and left on
  // the driver's (leaving's switch happens inside it), one frame lost from the driver's shadow
  // stack at every suspension until it underflows (seen as a TSan crash after a few fibers).
  [[gnu::always_inline]] void arrived() noexcept {
    asan_finish_switch(fake_stack, &driver_bottom, &driver_size);
  }
  [[gnu::always_inline]] void leaving(bool last) noexcept {
    asan_start_switch(last ? nullptr : &fake_stack, driver_bottom, driver_size);
    tsan_switch_to(tsan_driver);
  }
};

// jump_fcontext(to, data), as seen by its caller. On x86-64 Linux it is entered with a jump and
// a return address pushed by hand instead of a call: jump_fcontext itself leaves by an
// indirect jump, never a return, so a call into it would leave its return address on the CPU's
// return-stack predictor for the *other* side of the switch, whose next return (the driver's
// back to its resumer) would then be mispredicted. Entered so, both sides leave the predictor
// as they found it and every return after a switch is predicted. The 128 bytes below the stack
// pointer (the red zone) are stepped over; what jump_fcontext does not preserve (every
// call-clobbered register) is declared clobbered. Elsewhere (and with AVX-512 or APX, whose
// extra call-clobbered registers the list below does not name) it is the plain call.
[[gnu::always_inline]] inline boost::context::detail::transfer_t fiber_jump(
    boost::context::detail::fcontext_t to, void* data) noexcept {
#if defined(__x86_64__) && defined(__linux__) && !defined(__AVX512F__) && !defined(__APX_F__)
  void* from = nullptr;
  void* back = nullptr;
  asm volatile(
      "lea -128(%%rsp), %%rsp\n\t"
      "lea 1f(%%rip), %%r11\n\t"
      "push %%r11\n\t"
      "jmp *%[jump]\n"
      "1:\n\t"
      "lea 128(%%rsp), %%rsp"
      : "=a"(from), "=d"(back), "+D"(to), "+S"(data)
      : [jump] "r"(&boost::context::detail::jump_fcontext)
      : "rcx", "r8", "r9", "r10", "r11", "memory", "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4",
        "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
        "xmm15", "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)", "st(7)", "mm0", "mm1",
        "mm2", "mm3", "mm4", "mm5", "mm6", "mm7");
  return {from, back};
#else
  return boost::context::detail::jump_fcontext(to, data);
#endif
}

// The running fiber's link; throws std::logic_error (saying so) outside a fiber. Out of line:
// it reads the thread-local afresh at every call.
[[nodiscard]] fiber_link& running_fiber_link();

// Switches out of the running fiber leaving `wait` to its driver, and returns once the driver
// switches back. Throws std::logic_error outside a fiber; rethrows what the awaiter's
// await_suspend threw (link.error); throws fiber_unwind when the fiber is being destroyed.
[[gnu::always_inline]] inline void suspend_fiber(fiber_wait& wait) {
  fiber_link& link = running_fiber_link();
  if (link.unwinding) throw fiber_unwind{};
  link.leaving(false);
  link.driver = fiber_jump(link.driver, &wait).fctx;
  link.arrived();
  if (link.unwinding) throw fiber_unwind{};
  if (link.error) std::rethrow_exception(std::exchange(link.error, nullptr));
}

}  // namespace shoal::detail
