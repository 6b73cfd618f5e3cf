// SPDX-License-Identifier: Apache-2.0
// The fiber stack pool: mmap'd stacks with an optional guard page, reused across fibers.
//
// What: acquire_stack gives a stack of at least `size` usable bytes (rounded up to pages), taken
// from the calling thread's cache (up to 16 stacks), else from the process-wide pool (bounded by
// set_fiber_stack_pool_limit), else freshly mapped. release_stack puts it back the same way, and
// unmaps it when both are full. A thread's cache goes to the shared pool when the thread exits.
// Mapping: MAP_NORESERVE (pages are committed as the fiber touches them); with a guard page,
// the lowest page is PROT_NONE, so a stack grown past its end faults instead of writing into
// its neighbour. A stack keeps its touched pages while pooled: the next fiber finds them warm.
//
// Thread-safety: any thread; a stack released on another thread than the one that acquired it
// joins the releasing thread's cache.
#pragma once

#include <cstddef>

namespace shoal::detail {

struct fiber_stack {
  char* mapping = nullptr;       // start of the mapping (the guard page when guarded)
  std::size_t mapping_size = 0;  // usable bytes + the guard page
  std::size_t size = 0;          // usable bytes
  bool guarded = false;

  // Lowest usable address; the stack grows down from top() towards it.
  [[nodiscard]] char* bottom() const noexcept { return mapping + (mapping_size - size); }
  [[nodiscard]] char* top() const noexcept { return mapping + mapping_size; }
  [[nodiscard]] bool in_guard(const void* address) const noexcept {
    const char* a = static_cast<const char*>(address);
    return guarded && a >= mapping && a < bottom();
  }
};

// The system page size.
[[nodiscard]] std::size_t page_size() noexcept;

// Errors: std::system_error when the kernel refuses the mapping or the guard (ENOMEM: the
// address space or vm.max_map_count is exhausted; the message says which limit to raise).
[[nodiscard]] fiber_stack acquire_stack(std::size_t size, bool guard);
void release_stack(const fiber_stack& stack) noexcept;
// The stack of a fiber destroyed while suspended: never reused. Its pages go back to the system
// and the range stays reserved, inaccessible (PROT_NONE), so that nothing is mapped there again
// and a late write into it (a node of an await still registered) faults instead of landing in
// another fiber's frames.
void retire_stack(const fiber_stack& stack) noexcept;

}  // namespace shoal::detail
