// SPDX-License-Identifier: Apache-2.0
// The fiber context (fiber_context.hpp) and the driver task behind shoal::fiber (shoal/fiber.hpp).
#include <boost/context/detail/fcontext.hpp>

#include <coroutine>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <utility>

#include "fiber/fiber_context.hpp"
#include "fiber/overflow_report.hpp"
#include "fiber/stack_pool.hpp"
#include "shoal/detail/fiber.hpp"
#include "shoal/detail/fiber_sanitizers.hpp"
#include "shoal/detail/task_env.hpp"
#include "shoal/detail/transfer.hpp"
#include "shoal/detail/with_env.hpp"
#include "shoal/executor.hpp"
#include "shoal/task.hpp"

namespace shoal::detail {

namespace ctx = boost::context::detail;

namespace {
// The fiber running on this thread. Read and written only on the driver's side of a switch
// (resume), which never changes threads across the jump; fiber-side code reaches it only through
// the out-of-line functions below, so no thread-local address is cached across a switch.
[[gnu::tls_model("initial-exec")]] thread_local fiber_context* running_fiber = nullptr;
}  // namespace

fiber_context* fiber_context::running() noexcept { return running_fiber; }

fiber_context::fiber_context(const fiber_options& options, fiber_body body)
    : stack_(acquire_stack(options.stack_size, options.guard_page)),
      body_(body),
      name_(options.name) {
  fiber_ = ctx::make_fcontext(stack_.top(), stack_.size, &fiber_context::entry);
  tsan_fiber_ = tsan_create_fiber();
  if (name_ != nullptr) tsan_set_name(tsan_fiber_, name_);
}

// resume() is inlined at its one call site (the driver): no call level of its own between a
// stack switch and the code that follows it.
[[gnu::always_inline]] inline fiber_wait* fiber_context::resume() {
  started_ = true;
  fiber_context* const outer = std::exchange(running_fiber, this);
  void* fake_stack = nullptr;
  asan_start_switch(&fake_stack, stack_.bottom(), stack_.size);
  if constexpr (fiber_tsan) link_.tsan_driver = tsan_current_fiber();
  tsan_switch_to(tsan_fiber_);
  const ctx::transfer_t back = fiber_jump(fiber_, this);
  asan_finish_switch(fake_stack, nullptr, nullptr);
  running_fiber = outer;
  fiber_ = back.fctx;
  return static_cast<fiber_wait*>(back.data);
}

fiber_context::~fiber_context() {
  const bool suspended = started_ && !ended_;
  if (suspended) {
    // Suspended for good: unwind its stack. suspend_fiber() throws fiber_unwind, and keeps throwing
    // it at every await, so the fiber can only end.
    link_.unwinding = true;
    while (resume() != nullptr) {
    }
  }
  tsan_destroy_fiber(tsan_fiber_);
  // What it was suspended on may still hold a node on this stack (an unstoppable await of a
  // future is its own node) and write into it when it completes: never give it to another fiber.
  if (suspended) {
    retire_stack(stack_);
  } else {
    release_stack(stack_);
  }
}

void fiber_context::entry(ctx::transfer_t from) noexcept {
  auto* self = static_cast<fiber_context*>(from.data);
  self->link_.driver = from.fctx;
  self->link_.arrived();
  try {
    self->body_.run(self->body_.self);
    // NOLINTNEXTLINE(bugprone-empty-catch): the stack is unwound to here; the fiber ends.
  } catch (const fiber_unwind&) {
  } catch (...) {
    std::terminate();  // fiber_call::run lets nothing else escape
  }
  self->ended_ = true;
  self->link_.leaving(true);
  ctx::jump_fcontext(self->link_.driver, nullptr);
  std::abort();  // an ended fiber is never resumed
}

namespace {

// The driver's await of what the fiber left: await_suspend calls the erased awaiter with the
// driver's handle and returns what it returned, as a coroutine awaiting it directly would (the
// awaiter's own transfer() already parked its handle when symmetric transfer is emulated: it
// must not be transferred again). Once that call returns, the fiber (and `wait`, on its stack)
// may already be running again on another thread: only the returned handle is used after it.
struct fiber_wait_awaiter {
  fiber_wait* wait;
  fiber_link* link;

  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(fiber_driver_handle driver) noexcept {
    std::coroutine_handle<> next;
    try {
      next = wait->suspend(wait->awaiter, driver);
    } catch (...) {
      // It did not suspend: the fiber rethrows the exception from its await.
      link->error = std::current_exception();
      return transfer(driver);
    }
    return next ? next : std::noop_coroutine();
  }
  void await_resume() const noexcept {}
};

}  // namespace

task<void> run_fiber(fiber_options options, fiber_body body) {
  // The fiber's own environment: the caller's, bound to this executor unless the caller's
  // chain is bound already or the fiber may migrate.
  promise_base& self = co_await promise_access{};
  task_env env = inherited_env(self);
  if (!options.migrate && env.home == nullptr) env.home = executor::current();
  adopt_env(self, env);
  prepare_overflow_report();
  fiber_context fiber(options, body);
  while (fiber_wait* wait = fiber.resume()) {
    co_await fiber_wait_awaiter{wait, &fiber.link()};
  }
}

bool in_fiber() noexcept { return running_fiber != nullptr; }

namespace {
// Out of line and cold: running_fiber_link, on every suspension, saves no registers for it.
[[noreturn, gnu::noinline, gnu::cold]] void throw_outside_fiber() {
  throw std::logic_error(
      "shoal::await called outside a fiber (in a task, co_await instead; elsewhere, start a "
      "fiber with shoal::fiber)");
}
}  // namespace

void require_fiber() {
  if (running_fiber == nullptr) throw_outside_fiber();
}

fiber_link& running_fiber_link() {
  fiber_context* const fiber = running_fiber;
  if (fiber == nullptr) [[unlikely]]
    throw_outside_fiber();
  return fiber->link();
}

}  // namespace shoal::detail
