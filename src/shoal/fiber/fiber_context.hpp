// SPDX-License-Identifier: Apache-2.0
// One fiber's execution context: its stack, its Boost.Context fcontext, and the switches.
//
// What: a fiber_context owns a stack from the pool and the fcontext made on it. resume() (called
// by the driver, on the thread's stack) switches into the fiber and returns when the fiber
// switches back: with the fiber_wait it left (it awaits something), or null (it has ended).
// The fiber's side of a switch is suspend_fiber (shoal/detail/fiber_switch.hpp), inlined into
// shoal::await, over the context's fiber_link. Every switch is bracketed for ASan and TSan
// (shoal/detail/fiber_sanitizers.hpp).
// It uses Boost.Context's fcontext layer (make_fcontext / jump_fcontext), not
// boost::context::fiber: that class has no sanitizer hooks in its fcontext build and hides the
// exact switch points the hooks must bracket; its resume() is the same jump_fcontext.
//
// Lifetime: destroying a context whose fiber is suspended resumes it once with `unwinding` set:
// suspend_fiber() throws fiber_unwind, which unwinds the fiber's stack to its entry; then the stack
// is retired, never reused (retire_stack: what it awaited may still hold a node on it). A fiber
// that ended gives its stack back to the pool.
// Thread-safety: one thread at a time (the driver's); resume() returns on the thread it was
// called on.
#pragma once

#include <boost/context/detail/fcontext.hpp>

#include "fiber/stack_pool.hpp"
#include "shoal/detail/fiber.hpp"

namespace shoal::detail {

class fiber_context {
 public:
  // Takes a stack (std::system_error when none can be mapped) and prepares the fiber's entry.
  fiber_context(const fiber_options& options, fiber_body body);
  fiber_context(const fiber_context&) = delete;
  fiber_context& operator=(const fiber_context&) = delete;
  ~fiber_context();

  // Driver side: runs the fiber until it waits (its wait) or ends (null).
  fiber_wait* resume();
  // Fiber side: what suspend_fiber switches with.
  [[nodiscard]] fiber_link& link() noexcept { return link_; }

  [[nodiscard]] const fiber_stack& stack() const noexcept { return stack_; }
  [[nodiscard]] const char* name() const noexcept { return name_; }

  // The fiber running on this thread, or null.
  [[nodiscard]] static fiber_context* running() noexcept;

 private:
  using fcontext = boost::context::detail::fcontext_t;
  static void entry(boost::context::detail::transfer_t from) noexcept;

  fiber_stack stack_;
  fiber_body body_;
  const char* name_;
  fcontext fiber_ = nullptr;  // the fiber, while it is suspended
  fiber_link link_;           // the fiber's side: the driver's context, unwinding, sanitizers
  bool started_ = false;
  bool ended_ = false;
  void* tsan_fiber_ = nullptr;  // TSan: the fiber's own TSan fiber
};

}  // namespace shoal::detail
