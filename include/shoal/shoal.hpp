// SPDX-License-Identifier: Apache-2.0
// shoal/shoal.hpp: the whole runtime in one include.
//
// Includes every public header of the runtime (libshoal, target shoal::shoal). Not fiber.hpp:
// fibers are a library of their own (shoal::fiber, which needs Boost.Context): include
// <shoal/fiber.hpp> and link it where they are used. One concept per header stays the rule:
// include the headers you use where build time matters; this one is for programs and examples
// that use much of the runtime.
#pragma once

#include "shoal/actor.hpp"
#include "shoal/async_backtrace.hpp"
#include "shoal/async_event.hpp"
#include "shoal/async_mutex.hpp"
#include "shoal/async_semaphore.hpp"
#include "shoal/batcher.hpp"
#include "shoal/bound_batcher.hpp"
#include "shoal/channel.hpp"
#include "shoal/clock.hpp"
#include "shoal/coroutine_local.hpp"
#include "shoal/detached_task.hpp"
#include "shoal/executor.hpp"
#include "shoal/fd_watch.hpp"
#include "shoal/foreign_completion.hpp"
#include "shoal/frame_allocator.hpp"
#include "shoal/future.hpp"
#include "shoal/future_failure.hpp"
#include "shoal/future_run.hpp"
#include "shoal/gate.hpp"
#include "shoal/preheat.hpp"
#include "shoal/promise.hpp"
#include "shoal/run_blocking.hpp"
#include "shoal/sleep.hpp"
#include "shoal/socket.hpp"
#include "shoal/stop.hpp"
#include "shoal/subpool.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/task_group.hpp"
#include "shoal/thread_bound.hpp"
#include "shoal/thread_pool.hpp"
#include "shoal/timeout.hpp"
#include "shoal/when_all.hpp"
#include "shoal/when_any.hpp"
#include "shoal/yield.hpp"
