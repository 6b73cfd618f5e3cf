// SPDX-License-Identifier: Apache-2.0
#include "shoal/async_backtrace.hpp"

#include <dlfcn.h>

#include <cinttypes>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "debug/elf_symbols.hpp"

namespace shoal {

namespace detail {

// tools/gdb/shoal_backtrace.py reads promise_base at these offsets when the program has no
// debug information; keep them in step.
static_assert(std::is_standard_layout_v<promise_base>);
static_assert(offsetof(promise_base, continuation) == 0);
static_assert(offsetof(promise_base, parent) == 2 * sizeof(void*));

namespace {

// The ABI assumption (see the header): the first word of a coroutine frame is the address of
// its resume function, in clang's and in g++'s frame layout alike.
const void* resume_function_of(const void* frame) noexcept {
  const void* resume = nullptr;
  std::memcpy(static_cast<void*>(&resume), frame, sizeof resume);
  return resume;
}

async_frame frame_of(const void* frame) noexcept {
  return {frame, frame != nullptr ? resume_function_of(frame) : nullptr};
}

}  // namespace

std::vector<async_frame> walk_async_chain(const promise_base& innermost, const void* frame) {
  std::vector<async_frame> chain;
  chain.push_back(frame_of(frame));
  // Each promise knows its awaiter's frame (continuation) and, when the awaiter is a shoal
  // coroutine, its promise (parent). A root has neither; a foreign awaiter ends the walk.
  for (const promise_base* p = &innermost; p->continuation; p = p->parent) {
    chain.push_back(frame_of(p->continuation.address()));
    if (p->parent == nullptr) break;
  }
  return chain;
}

}  // namespace detail

code_symbol symbolize(const void* code) {
  code_symbol out;
  detail::code_module module = detail::find_code_module(code);
  if (module.path.empty()) return out;
  out.offset = module.offset;
  std::string mangled = detail::elf_function_at(module.path, module.offset);
  Dl_info info{};
  if (mangled.empty() && ::dladdr(code, &info) != 0 && info.dli_sname != nullptr) {
    mangled = info.dli_sname;
  }
  out.module = module.path;
  if (!mangled.empty()) out.function = detail::readable_function_name(mangled);
  return out;
}

std::string format_async_backtrace(const std::vector<async_frame>& frames) {
  std::string out;
  char buffer[64];
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const async_frame& f = frames[i];
    const code_symbol symbol = symbolize(f.resume);
    std::snprintf(buffer, sizeof buffer, "#%zu ", i);
    out += buffer;
    if (symbol.function.empty()) {
      std::snprintf(buffer, sizeof buffer, "%p", f.resume);
      out += buffer;
    } else {
      out += symbol.function;
    }
    std::snprintf(buffer, sizeof buffer, " [frame %p, ", f.frame);
    out += buffer;
    out += symbol.module.empty() ? "?" : symbol.module;
    std::snprintf(buffer, sizeof buffer, "+0x%" PRIxPTR "]\n", symbol.offset);
    out += buffer;
  }
  return out;
}

}  // namespace shoal
