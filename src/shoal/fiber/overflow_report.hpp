// SPDX-License-Identifier: Apache-2.0
// The stack-overflow report of shoal::report_fiber_stack_overflows (shoal/fiber.hpp).
//
// What: once enabled, a SIGSEGV handler, run on an alternate signal stack, checks whether the
// faulting address lies in the guard page of the fiber running on the faulting thread; if so it
// writes one line naming the fiber to stderr. Either way it then puts back the handler it
// replaced and returns, so the faulting instruction faults again and the process ends as it
// would have without it (or the previous handler runs).
// Thread-safety: prepare_overflow_report runs on each thread before it runs a fiber.
#pragma once

namespace shoal::detail {

// When reports are enabled, gives the calling thread its alternate signal stack (once).
void prepare_overflow_report() noexcept;

}  // namespace shoal::detail
