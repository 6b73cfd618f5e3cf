// SPDX-License-Identifier: Apache-2.0
// The cold paths of the batchers (shoal/batcher.hpp, shoal/bound_batcher.hpp): the errors of a
// misused batcher or bulk function, compiled once.
#include "shoal/bound_batcher.hpp"

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

namespace shoal::detail {

namespace {
std::string describe(const executor* ex) {
  if (ex == nullptr) return "no executor";
  char text[32];
  (void)std::snprintf(text, sizeof text, "executor %p", static_cast<const void*>(ex));
  return text;
}
}  // namespace

void throw_wrong_executor(const executor* home, const executor* here) {
  throw wrong_executor("shoal::bound_batcher: awaited on " + describe(here) +
                       ", but it is bound to " + describe(home) +
                       "; await it only from coroutines running there (bind them with spawn_on or "
                       "schedule_on), or use shoal::batcher for callers on several executors");
}

std::exception_ptr size_mismatch(const char* who) noexcept {
  try {
    throw std::logic_error(std::string(who) +
                           ": the bulk function returned a result count different from its "
                           "argument count");
  } catch (...) {
    return std::current_exception();
  }
}

executor& current_executor_or_throw(const char* what) {
  executor* here = executor::current();
  if (here == nullptr) {
    throw std::logic_error(std::string(what) +
                           ": constructed outside any executor; pass its home executor");
  }
  return *here;
}

}  // namespace shoal::detail
