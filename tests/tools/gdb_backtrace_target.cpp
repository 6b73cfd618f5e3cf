// SPDX-License-Identifier: Apache-2.0
// The program tests/tools/gdb_backtrace_check.sh debugs: a chain of three shoal tasks whose
// innermost one records its own frame address and calls a plain function gdb breaks on.
// Exits 0 after the chain completes (when run without gdb).
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>

#include <coroutine>

namespace gdb_target {

// Read by gdb: the innermost coroutine's frame (`shoal-bt gdb_target::innermost_frame`).
void* volatile innermost_frame = nullptr;

void stop_here();

// Where gdb stops: called from inside the innermost coroutine while the chain is running.
[[gnu::noinline]] void stop_here() { asm volatile(""); }

}  // namespace gdb_target

namespace {

// Gives the awaiting coroutine's frame address without suspending it.
struct own_frame {
  void* address = nullptr;
  bool await_ready() const noexcept { return false; }
  bool await_suspend(std::coroutine_handle<> h) noexcept {
    address = h.address();
    return false;
  }
  void* await_resume() const noexcept { return address; }
};

shoal::task<int> gdb_chain_leaf() {
  gdb_target::innermost_frame = co_await own_frame{};
  gdb_target::stop_here();
  co_return 1;
}

shoal::task<int> gdb_chain_middle() { co_return co_await gdb_chain_leaf() + 1; }

shoal::task<int> gdb_chain_outer() { co_return co_await gdb_chain_middle() + 1; }

}  // namespace

int main() { return shoal::sync_wait(gdb_chain_outer()) == 3 ? 0 : 1; }
