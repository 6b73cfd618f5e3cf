// One fiber's execution context: its stack, its Boost.Context fcontext, and the switches.
//
// What: a fiber_context owns a stack from the pool and the fcontext made on it. resume() (called
// by the driver, on the thread's stack) switches into the fiber and returns when the fiber
// switches back: with the fiber_wait it left (it awaits something), or null (it has ended).
// suspend() (called on the fiber) switches back to whoever resumed it and returns when it is
// resumed again, possibly on another thread. Every switch is bracketed for ASan and TSan
// (sanitizers.hpp).
// It uses Boost.Context's fcontext layer (make_fcontext / jump_fcontext), not
// boost::context::fiber: that class has no sanitizer hooks in its fcontext build and hides the
// exact switch points the hooks must bracket; its resume() is the same jump_fcontext.
//
// Lifetime: destroying a context whose fiber is suspended resumes it once with `unwinding` set:
// suspend() throws fiber_unwind, which unwinds the fiber's stack to its entry; then the stack
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
  // Fiber side: leaves `wait` to the driver and returns when resumed (see suspend_fiber).
  void suspend(fiber_wait& wait);

  [[nodiscard]] const fiber_stack& stack() const noexcept { return stack_; }
  [[nodiscard]] const char* name() const noexcept { return name_; }

  // The fiber running on this thread, or null.
  [[nodiscard]] static fiber_context* running() noexcept;

 private:
  using fcontext = boost::context::detail::fcontext_t;
  static void entry(boost::context::detail::transfer_t from) noexcept;
  // Sanitizer brackets of the fiber side: after arriving on the fiber's stack, before leaving
  // it (`last`: for good).
  void arrived() noexcept;
  void leaving(bool last) noexcept;

  fiber_stack stack_;
  fiber_body body_;
  const char* name_;
  fcontext fiber_ = nullptr;   // the fiber, while it is suspended
  fcontext caller_ = nullptr;  // the driver, while the fiber runs
  bool started_ = false;
  bool ended_ = false;
  bool unwinding_ = false;
  // ASan: the fiber's fake stack while it is switched out, and the bounds of the stack that
  // resumed it (the worker thread's, learnt at every resumption: it may be another thread).
  void* fake_stack_ = nullptr;
  const void* caller_bottom_ = nullptr;
  std::size_t caller_size_ = 0;
  // TSan: the fiber's own TSan fiber, and the one that resumed it.
  void* tsan_fiber_ = nullptr;
  void* tsan_caller_ = nullptr;
};

}  // namespace shoal::detail
