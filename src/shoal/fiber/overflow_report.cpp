// SPDX-License-Identifier: Apache-2.0
// The fiber stack-overflow report (overflow_report.hpp).
#include "fiber/overflow_report.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <system_error>

#include "fiber/fiber_context.hpp"
#include "fiber/stack_pool.hpp"
#include "shoal/fiber.hpp"

namespace shoal {
namespace detail {
namespace {

constexpr std::size_t alt_stack_bytes = std::size_t{64} * 1024;

std::atomic<bool> reports_enabled{false};
struct sigaction replaced_action{};

// The calling thread's alternate signal stack, removed and freed when the thread exits.
struct alt_stack {
  alt_stack() = default;
  alt_stack(const alt_stack&) = delete;
  alt_stack& operator=(const alt_stack&) = delete;
  ~alt_stack() {
    if (memory == nullptr) return;
    stack_t off{};
    off.ss_flags = SS_DISABLE;
    ::sigaltstack(&off, nullptr);
  }
  std::unique_ptr<char[]> memory;
};
thread_local alt_stack thread_alt_stack;

// Async-signal-safe formatting into a fixed buffer.
class line {
 public:
  void text(const char* s) noexcept {
    while (*s != '\0' && used_ < buffer_.size()) buffer_[used_++] = *s++;
  }
  void number(std::uintptr_t v, unsigned base) noexcept {
    std::array<char, 24> digits{};
    std::size_t n = 0;
    do {
      digits[n++] = "0123456789abcdef"[v % base];
      v /= base;
    } while (v != 0 && n < digits.size());
    if (base == 16) text("0x");
    while (n > 0 && used_ < buffer_.size()) buffer_[used_++] = digits[--n];
  }
  void address(const void* p) noexcept { number(reinterpret_cast<std::uintptr_t>(p), 16); }
  void write_to(int fd) const noexcept {
    std::size_t done = 0;
    while (done < used_) {
      const ssize_t n = ::write(fd, buffer_.data() + done, used_ - done);
      if (n <= 0) return;
      done += static_cast<std::size_t>(n);
    }
  }

 private:
  std::array<char, 320> buffer_{};
  std::size_t used_ = 0;
};

void on_segv(int /*signal*/, siginfo_t* info, void* /*context*/) {
  const int saved_errno = errno;
  const fiber_context* fiber = fiber_context::running();
  if (fiber != nullptr && fiber->stack().in_guard(info->si_addr)) {
    const fiber_stack& s = fiber->stack();
    line out;
    out.text("shoal: fiber '");
    out.text(fiber->name() != nullptr ? fiber->name() : "(unnamed)");
    out.text("' overflowed its stack of ");
    out.number(s.size, 10);
    out.text(" bytes [");
    out.address(s.bottom());
    out.text(", ");
    out.address(s.top());
    out.text("): fault at ");
    out.address(info->si_addr);
    out.text(" in its guard page; give it a larger fiber_options::stack_size\n");
    out.write_to(STDERR_FILENO);
  }
  // Fault again under the handler this one replaced (by default: die of SIGSEGV).
  ::sigaction(SIGSEGV, &replaced_action, nullptr);
  errno = saved_errno;
}

}  // namespace

void prepare_overflow_report() noexcept {
  if (!reports_enabled.load(std::memory_order_acquire)) return;
  alt_stack& a = thread_alt_stack;
  if (a.memory != nullptr) return;
  stack_t current{};
  if (::sigaltstack(nullptr, &current) == 0 && (current.ss_flags & SS_DISABLE) == 0) {
    return;  // the thread has one already (someone else's): use it
  }
  std::unique_ptr<char[]> memory(new (std::nothrow) char[alt_stack_bytes]);
  if (memory == nullptr) return;
  stack_t ss{};
  ss.ss_sp = memory.get();
  ss.ss_size = alt_stack_bytes;
  if (::sigaltstack(&ss, nullptr) == 0) a.memory = std::move(memory);
}

}  // namespace detail

void report_fiber_stack_overflows() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action{};
    action.sa_sigaction = &detail::on_segv;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    if (::sigaction(SIGSEGV, &action, &detail::replaced_action) != 0) {
      throw std::system_error(errno, std::generic_category(),
                              "shoal::report_fiber_stack_overflows: sigaction");
    }
    detail::reports_enabled.store(true, std::memory_order_release);
  });
  detail::prepare_overflow_report();
}

}  // namespace shoal
