// SPDX-License-Identifier: Apache-2.0
// A when_all/when_any child's private env (shoal/detail/join_point.hpp): made the first time the
// child rebinds its chain, so that the env its siblings share is never written.
#include <memory>

#include "shoal/detail/join_point.hpp"

namespace shoal::detail {

// The frames of the child's chain that run in the shared env are `running` and its awaiters up to
// the child's own task (the one whose promise reports to the join): every frame in between was
// awaited from the one above and inherited its env, and one that substituted an env of its own
// (with_local, with_stop_token) would not run in the shared one. So one walk up finds them all.
task_env& unshare_env(promise_base& running) {
  task_env* const shared = running.env;
  promise_base* root = &running;
  while (root->fork == nullptr) root = root->parent;  // the child's own task
  auto mine = std::make_unique<private_env>();
  mine->env = *shared;  // a copy: not shared
  for (promise_base* p = &running; p != root; p = p->parent) p->env = &mine->env;
  root->env = &mine->env;
  if (current_env == shared) current_env = &mine->env;
  private_env& kept = *mine.release();
  root->fork->keep(kept);
  return kept.env;
}

}  // namespace shoal::detail
