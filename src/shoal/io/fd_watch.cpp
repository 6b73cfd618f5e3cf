// SPDX-License-Identifier: Apache-2.0
// Registration of a watched descriptor (shoal/fd_watch.hpp).
#include "shoal/fd_watch.hpp"

#include <stdexcept>

#include "shoal/executor.hpp"

namespace shoal {

fd_watch::fd_watch(int fd) {
  executor* ex = executor::current();
  reactor_ = ex != nullptr ? ex->io_reactor() : nullptr;
  if (reactor_ == nullptr) {
    throw std::logic_error(
        "shoal: fd_watch needs an executor with a reactor (a thread_pool worker)");
  }
  reg_ = reactor_->add(fd);
}

void fd_watch::reset() noexcept {
  if (reg_ == nullptr) return;
  reactor_->drop(std::exchange(reg_, nullptr));
  reactor_ = nullptr;
}

}  // namespace shoal
