// SPDX-License-Identifier: Apache-2.0
// shoal/detail/lazy_stop.hpp: the stop state of a fork scope (when_all, when_any, task_group),
// made only when it is needed.
//
// What: a flag set by the scope's request_stop (a child failed, the group was cancelled) and the
// parent's stop_ref. stop_requested() is the flag or the parent's answer (a walk up the nesting
// of fork scopes, each one load). Only when a child asks for the std::stop_token itself (a sleep,
// a wait, a future registering a std::stop_callback) is a std::stop_source made, once, linked to
// the parent's token and stopped at once when the flag is already set. Callbacks that need no
// token (the batchers' hosts, host_stop_callback.hpp) register on the scope itself (add/remove:
// an intrusive list, no allocation); the first one links the scope to its parent's stop, once (a
// node on a lazy parent, a std::stop_callback in place on a plain one). A fork tree whose children
// never wait on anything stoppable (fib, nqueens) touches none of this and allocates nothing.
//
// Lifetime: lives in the scope, which outlives every child; the made source, its link and the
// callbacks' link go with it. A registered callback is removed before it is destroyed. A
// std::stop_token copied out of it keeps its own reference.
// Thread-safety: everything from any thread. Memory ordering: the flags, the made source's bit
// and a lock bit share one atomic byte, so request_stop (sets the flag, reads the made bit) and
// token() (publishes the source, sets the made bit, reads the flag) order on it: one sees the
// other. The callbacks' list is under the lock bit (lazy_stop.cpp says why no run is lost).
// Out of memory: token() throws std::bad_alloc, so its callers ask for it before they register
// themselves with a timer or a wait list; current_stop_token() (noexcept) terminates.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>

#include "shoal/detail/stop_ref.hpp"

namespace shoal::detail {

// A callback registered on a lazy_stop (lazy_stop::add) without making its std::stop_source;
// intrusive: it lives in whoever registered it (host_stop_callback.hpp gives it a function).
class lazy_stop_node {
 public:
  using run_fn = void (*)(lazy_stop_node&) noexcept;
  explicit lazy_stop_node(run_fn run) noexcept : run_(run) {}
  lazy_stop_node(const lazy_stop_node&) = delete;
  lazy_stop_node& operator=(const lazy_stop_node&) = delete;
  ~lazy_stop_node() = default;

 private:
  friend class lazy_stop;
  run_fn run_;
  lazy_stop_node* prev_ = nullptr;  // the list's links, under the stop's lock bit
  lazy_stop_node* next_ = nullptr;
  bool listed_ = false;            // under the lock bit: registered, not yet taken to run
  std::atomic<bool> done_{false};  // its run returned: store release, remove's load acquire
};

class lazy_stop {
 public:
  lazy_stop() noexcept = default;
  explicit lazy_stop(stop_ref parent) noexcept : parent_(parent) {}
  lazy_stop(const lazy_stop&) = delete;
  lazy_stop& operator=(const lazy_stop&) = delete;
  ~lazy_stop() {
    // acquire: pairs with make's and add's RMWs (the scope's join ordered them before this).
    if ((state_.load(std::memory_order_acquire) & (made_bit | linked_bit)) != 0) [[unlikely]] {
      free_extras();
    }
  }

  // Before any child runs under it: whose stop this one follows.
  void follow(stop_ref parent) noexcept { parent_ = parent; }

  void request_stop() noexcept {
    // seq_cst: one RMW order with make's made bit (see the header).
    const std::uint8_t was = state_.fetch_or(requested_bit, std::memory_order_seq_cst);
    if ((was & requested_bit) != 0) return;
    stopped_now(was);
  }
  [[nodiscard]] bool stop_requested() const noexcept { return stop_ref(*this).stop_requested(); }
  // This scope's own request, without its parent's.
  [[nodiscard]] bool requested_here() const noexcept {
    // acquire: pairs with request_stop's RMW.
    return (state_.load(std::memory_order_acquire) & requested_bit) != 0;
  }
  [[nodiscard]] stop_ref parent() const noexcept { return parent_; }
  [[nodiscard]] const std::stop_token& token() const {
    // acquire: pairs with make's RMW, which published made_.
    if ((state_.load(std::memory_order_acquire) & made_bit) != 0) return made_->token;
    return make()->token;
  }
  // Whether token() made the std::stop_source (diagnostics and tests).
  [[nodiscard]] bool token_made() const noexcept {
    return (state_.load(std::memory_order_acquire) & made_bit) != 0;  // pairs with make's RMW
  }

  // Registers n: it runs once, on the thread that stops this scope or its parent (or, when that
  // stop comes while the first add links the scope to its parent, on the thread adding: possibly
  // before add returns). False, n not registered, when the stop has run the callbacks already:
  // the caller does n's work itself. Any thread.
  bool add(lazy_stop_node& n) const noexcept;
  // Deregisters n (add returned true): returns once a run of it on another thread has returned;
  // from n's own run, at once. Afterwards n never runs. Any thread.
  void remove(lazy_stop_node& n) const noexcept;

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
  // The callbacks' link to the parent's stop: a node on a lazy parent, a std::stop_callback on a
  // plain one; made by the first add, in place.
  struct parent_forward {
    const lazy_stop* self;
    void operator()() const noexcept { self->run_callbacks(); }
  };
  struct parent_node : lazy_stop_node {
    explicit parent_node(const lazy_stop* s) noexcept : lazy_stop_node(&run), self(s) {}
    static void run(lazy_stop_node& n) noexcept {
      static_cast<parent_node&>(n).self->run_callbacks();
    }
    const lazy_stop* self;
  };
  using parent_callback = std::stop_callback<parent_forward>;
  static constexpr std::size_t link_size = sizeof(parent_node) > sizeof(parent_callback)
                                               ? sizeof(parent_node)
                                               : sizeof(parent_callback);
  static constexpr std::size_t link_align = alignof(parent_node) > alignof(parent_callback)
                                                ? alignof(parent_node)
                                                : alignof(parent_callback);

  static constexpr std::uint8_t requested_bit = 1;  // request_stop was called
  static constexpr std::uint8_t made_bit = 2;       // made_ is set (token())
  static constexpr std::uint8_t lock_bit = 4;       // guards head_ and made_'s making
  static constexpr std::uint8_t listed_bit = 8;     // head_ is set (the first add)
  static constexpr std::uint8_t linked_bit = 16;    // link_ holds the callbacks' link
  static constexpr std::uint8_t ran_bit = 32;       // run_callbacks began: add refuses

  // The rest of the lazy_stop.cpp.
  void stopped_now(std::uint8_t was) const noexcept;  // the source, then the callbacks
  made* make() const;                                 // std::bad_alloc (see the header)
  void free_extras() noexcept;                        // the made source and the link; cold
  void link_parent() const noexcept;
  void run_callbacks() const noexcept;  // once: from request_stop or the parent's stop
  std::uint8_t lock() const noexcept;   // spins; returns the state, locked
  void unlock() const noexcept {
    // release: pairs with lock()'s acquire CAS.
    state_.fetch_and(static_cast<std::uint8_t>(~lock_bit), std::memory_order_release);
  }

  stop_ref parent_;
  mutable std::atomic<std::uint8_t> state_{0};
  // Unset until their bits say otherwise (so a scope that uses none of them costs one store).
  mutable made* made_;            // made_bit; written under the lock bit, once
  mutable lazy_stop_node* head_;  // listed_bit; under the lock bit
  alignas(link_align) mutable std::byte link_[link_size];  // linked_bit
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
