// SPDX-License-Identifier: Apache-2.0
// shoal/detail/lazy_stop.hpp: the stop state of a fork scope (when_all, when_any, task_group),
// made only when it is needed.
//
// What: a flag set by the scope's request_stop (a child failed, the group was cancelled) and the
// parent's stop_ref. stop_requested() is the flag or the parent's answer (a walk up the nesting
// of fork scopes, each one load). Only when a child asks for the std::stop_token itself (to
// register a std::stop_callback: a sleep, a wait, a future) is a std::stop_source made, once,
// linked to the parent's token and stopped at once when the flag is already set. A fork tree
// whose children never wait on anything stoppable (fib, nqueens) allocates no stop state.
//
// Lifetime: lives in the scope, which outlives every child; the made source (and its link to the
// parent's token) is freed with it. A std::stop_token copied out of it keeps its own reference.
// Thread-safety: request_stop, stop_requested and token from any thread. Memory ordering:
// request_stop sets the flag and then reads whether a source was made; token() publishes the
// source and then reads the flag; both seq_cst, so one of the two sees the other and the
// source cannot miss a request.
// Out of memory: token() throws std::bad_alloc, so its callers (a sleep, a wait, an I/O wait, a
// future's await) ask for it before they register themselves with a timer or a wait list;
// current_stop_token() (noexcept) terminates.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <stop_token>

#include "shoal/detail/stop_ref.hpp"

namespace shoal::detail {

class lazy_stop {
 public:
  lazy_stop() noexcept = default;
  explicit lazy_stop(stop_ref parent) noexcept : parent_(parent) {}
  lazy_stop(const lazy_stop&) = delete;
  lazy_stop& operator=(const lazy_stop&) = delete;
  ~lazy_stop() {
    // acquire: pairs with make's CAS.
    if (made_.load(std::memory_order_acquire) != nullptr) [[unlikely]] {
      free_made();
    }
  }

  // Before any child runs under it: whose stop this one follows.
  void follow(stop_ref parent) noexcept { parent_ = parent; }

  void request_stop() noexcept {
    if (requested_.exchange(true, std::memory_order_seq_cst)) return;
    if (made* m = made_.load(std::memory_order_seq_cst)) m->source.request_stop();
  }
  [[nodiscard]] bool stop_requested() const noexcept { return stop_ref(*this).stop_requested(); }
  // This scope's own request, without its parent's.
  [[nodiscard]] bool requested_here() const noexcept {
    return requested_.load(std::memory_order_acquire);  // pairs with request_stop's exchange
  }
  [[nodiscard]] stop_ref parent() const noexcept { return parent_; }
  [[nodiscard]] const std::stop_token& token() const {
    made* m = made_.load(std::memory_order_acquire);  // pairs with make's CAS
    if (m == nullptr) m = make();
    return m->token;
  }

 private:
  struct forward {
    std::stop_source* source;
    void operator()() const noexcept { source->request_stop(); }
  };
  struct made {
    std::stop_source source;
    std::stop_token token = source.get_token();
    std::optional<std::stop_callback<forward>> link;  // parent's token -> source
  };

  [[gnu::cold, gnu::noinline]] void free_made() noexcept {
    delete made_.load(std::memory_order_relaxed);
  }
  made* make() const {  // std::bad_alloc (see the header)
    auto fresh = std::make_unique<made>();
    if (parent_.stop_possible()) fresh->link.emplace(parent_.token(), forward{&fresh->source});
    made* expected = nullptr;
    if (!made_.compare_exchange_strong(expected, fresh.get(), std::memory_order_seq_cst,
                                       std::memory_order_acquire)) {
      return expected;  // another thread made it first; ours goes
    }
    made* m = fresh.release();
    if (requested_.load(std::memory_order_seq_cst)) m->source.request_stop();
    return m;
  }

  stop_ref parent_;
  std::atomic<bool> requested_{false};
  mutable std::atomic<made*> made_{nullptr};
};

// A loop, not a recursion, so that it inlines: the common case (a plain token) is one test more
// than std::stop_token::stop_requested.
inline bool stop_ref::stop_requested() const noexcept {
  if (!is_lazy()) [[likely]]
    return plain().stop_requested();
  stop_ref at = *this;
  do {
    if (at.lazy().requested_here()) return true;
    at = at.lazy().parent();
  } while (at.is_lazy());
  return at.plain().stop_requested();
}
inline bool stop_ref::stop_possible() const noexcept {
  return is_lazy() || plain().stop_possible();
}
inline const std::stop_token& stop_ref::token() const {
  return is_lazy() ? lazy().token() : plain();
}

}  // namespace shoal::detail
