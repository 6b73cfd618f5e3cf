// SPDX-License-Identifier: Apache-2.0
// shoal/async_backtrace.hpp: the awaiting chain of a coroutine, innermost first, as data.
//
// What: an ordinary stack trace of a suspended coroutine shows the run loop that will resume
// it, not who is waiting for it. Shoal records, in every task it starts, the promise of the
// coroutine that awaits it. From a coroutine, `async_backtrace` follows those links to the root
// of the chain and returns one async_frame per coroutine: its frame and its resume function.
// (Not the line of the co_await it is at: see docs/design/debugging.md for why.)
// `format_async_backtrace` names the functions (from the ELF symbol table, so it needs no
// -rdynamic and finds coroutines with internal linkage) and prints `module+offset` for
// `addr2line`. In gdb, tools/gdb/shoal_backtrace.py does the same walk (docs/design/debugging.md).
//
// ABI assumption: a coroutine frame starts with the address of its resume function (clang and
// g++ both lay frames out as {resume, destroy, promise, ...}). async_frame::resume reads that
// word; the unit test checks it names the coroutine on both compilers.
//
// Cost: one pointer store when a task starts (its parent).
// Walking and formatting cost only when called.
//
// Lifetime: a walk reads frames that exist only while the chain is suspended or running; call
// it while the chain cannot complete (from inside it, or while it is suspended and nothing can
// resume it on another thread). The returned frames are plain data: they hold no reference.
// Thread-safety: the chain must not run on another thread during the walk. Formatting is
// reentrant.
#pragma once

#include <coroutine>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "shoal/detail/task_env.hpp"

namespace shoal {

// One coroutine of an awaiting chain.
struct async_frame {
  const void* frame = nullptr;   // the coroutine's frame: std::coroutine_handle::address()
  const void* resume = nullptr;  // its resume function: the first word of the frame
};

// A code address, symbolized.
struct code_symbol {
  std::string function;       // demangled, without the compiler's ".resume"/".actor" clone suffix;
                              // empty when the symbol table does not cover the address
  std::string module;         // the executable or shared object holding the address
  std::uintptr_t offset = 0;  // address relative to the module's load base, for addr2line
};

namespace detail {
std::vector<async_frame> walk_async_chain(const promise_base& innermost, const void* frame);

// Awaiter of async_backtrace_here: reads the awaiting coroutine without suspending it.
class backtrace_here_awaiter {
 public:
  bool await_ready() const noexcept { return false; }
  template <class Promise>
    requires std::is_base_of_v<promise_base, Promise>
  bool await_suspend(std::coroutine_handle<Promise> h) noexcept {
    promise_ = &h.promise();
    frame_ = h.address();
    return false;  // never suspends
  }
  std::vector<async_frame> await_resume() const { return walk_async_chain(*promise_, frame_); }

 private:
  const promise_base* promise_ = nullptr;
  const void* frame_ = nullptr;
};
}  // namespace detail

// The chain awaiting `coroutine`, starting with `coroutine` itself and ending with the root
// (sync_wait, spawn, a test scheduler) or with the first awaiter that is not a shoal coroutine.
// `coroutine` is any shoal coroutine (the handle an awaiter's await_suspend receives).
template <class Promise>
  requires std::is_base_of_v<detail::promise_base, Promise>
[[nodiscard]] std::vector<async_frame> async_backtrace(std::coroutine_handle<Promise> coroutine) {
  return detail::walk_async_chain(coroutine.promise(), coroutine.address());
}

// What async_backtrace_here() returns: an awaitable (below), awaited at once.
using backtrace_here_awaiter = detail::backtrace_here_awaiter;

// Awaitable, only inside a shoal task. Result: the chain of the awaiting coroutine, itself first.
// Errors: std::bad_alloc. Cancellation: none (never suspends).
// Resumes on: the same thread, at once. Thread-safety: reads the awaiting chain only.
// Plain functions cannot call it: no per-thread "current coroutine" is kept, as that would cost
// a store on every resumption. Example:
//   auto frames = co_await shoal::async_backtrace_here();
//   std::fputs(shoal::format_async_backtrace(frames).c_str(), stderr);
[[nodiscard]] inline backtrace_here_awaiter async_backtrace_here() noexcept { return {}; }

// Names the function holding `code`: the symbol table of its module (read from the file on
// each call), else dladdr. Never throws on missing symbols: `function` is then empty.
[[nodiscard]] code_symbol symbolize(const void* code);

// One line per frame, innermost first:
//   #0 ns::leaf() [frame 0x7f.., /path/prog+0x1a2b]
[[nodiscard]] std::string format_async_backtrace(const std::vector<async_frame>& frames);

}  // namespace shoal
