// SPDX-License-Identifier: Apache-2.0
// shoal/detail/fork_node.hpp: what a child started by a task_group carries to report its end.
//
// What: the scope that launched it, the hook to call when it ends, its index among its siblings,
// a link for completion_queue and the exception that escaped it, if any. A task_group child is a
// task wrapped in a fork root (shoal/detail/fork.hpp) whose promise is the node. (A
// when_all/when_any child carries none of this: its promise points at its join,
// detail/join_point.hpp.)
//
// Lifetime: from the moment `report_end` calls the hook, the child's frame may be destroyed by
// its parent on another thread: the caller touches nothing of it afterwards (an await_suspend
// that returns a handle to transfer into right after, which neither clang nor g++ 12 follows with
// a write to the frame).
// Thread-safety: written by the launcher before the child starts, then by the child when it ends;
// read by the join after the countdown ordered it.
#pragma once

#include <coroutine>
#include <cstddef>
#include <exception>
#include <utility>

namespace shoal::detail {

class fork_scope;

struct fork_node {
  // Returns the coroutine to transfer into next (the parent, when this child ended its wait and
  // it may resume on this thread: detail/fork_handoff.hpp), or nullptr.
  using end_hook = std::coroutine_handle<> (*)(fork_scope& scope, fork_node& child) noexcept;

  fork_scope* scope = nullptr;
  end_hook on_end = nullptr;
  std::size_t index = 0;      // position among the parent's children (spawn order in a group)
  fork_node* next = nullptr;  // link of completion_queue
  std::exception_ptr error;   // what escaped the child, if anything
};

// The child behind `node` has ended (with node.error set if it threw): tells its scope, and
// returns what the end hook says to run next.
inline std::coroutine_handle<> report_end(fork_node& node) noexcept {
  return node.on_end(*node.scope, node);
}

}  // namespace shoal::detail
