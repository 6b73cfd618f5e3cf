// SPDX-License-Identifier: Apache-2.0
// 08_async_backtrace: who is waiting for whom, printed from inside the chain.
//
// Shows: `co_await shoal::async_backtrace_here()` inside a coroutine three awaits deep gives the
// awaiting chain, itself first, down to the root sync_wait started; `format_async_backtrace`
// names each coroutine (from the ELF symbol table) and prints its module+offset for
// `addr2line -f -C -e <module> <offset>`. In gdb, `shoal-bt <handle>` prints the same chain
// (tools/gdb/shoal_backtrace.py). The backtrace of a chain suspended elsewhere, as a watchdog
// takes it: 15_stuck_request.
#include <shoal/async_backtrace.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "support/check.hpp"

namespace {

shoal::task<std::string> validate_order() {
  const std::vector<shoal::async_frame> frames = co_await shoal::async_backtrace_here();
  co_return shoal::format_async_backtrace(frames);
}

shoal::task<std::string> price_order() { co_return co_await validate_order(); }

shoal::task<std::string> handle_request() { co_return co_await price_order(); }

}  // namespace

int main() {
  std::printf("08_async_backtrace\n");
  const std::string here = shoal::sync_wait(handle_request());
  std::printf("  from inside validate_order:\n%s", here.c_str());
  const std::size_t a = here.find("validate_order");
  const std::size_t b = here.find("price_order");
  const std::size_t c = here.find("handle_request");
  examples::check(c != std::string::npos && a < b && b < c,  // npos is the largest value
                  "it names validate_order, price_order, handle_request, innermost first");
  return examples::finish("08_async_backtrace");
}
