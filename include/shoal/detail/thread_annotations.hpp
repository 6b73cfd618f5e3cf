// SPDX-License-Identifier: Apache-2.0
// shoal/detail/thread_annotations.hpp: Clang thread-safety annotations for shoal's locks.
//
// What: macros that tell clang's -Wthread-safety analysis which types are locks (capabilities),
// which fields a lock guards, and which functions must be called with a lock held. The analysis
// then rejects, at compile time, an access to a guarded field without its lock. On other
// compilers every macro expands to nothing, so they cost nothing and change no behaviour.
//
// Use: SHOAL_CAPABILITY on a lock type, SHOAL_ACQUIRE/SHOAL_RELEASE on its lock/unlock,
// SHOAL_SCOPED_CAPABILITY on a guard that holds a lock for a scope, SHOAL_GUARDED_BY(lock) on a
// field, SHOAL_PT_GUARDED_BY(lock) on a pointer whose pointee the lock guards,
// SHOAL_REQUIRES(lock) on a function called with the lock held, SHOAL_EXCLUDES(lock) on one that
// takes it, SHOAL_NO_THREAD_SAFETY_ANALYSIS on the rare function whose locking the analysis cannot
// follow (each use says why).
//
// Thread-safety: compile-time only; nothing here exists at run time.
#pragma once

#if defined(__clang__)
#define SHOAL_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define SHOAL_THREAD_ANNOTATION(x)
#endif

#define SHOAL_CAPABILITY(name) SHOAL_THREAD_ANNOTATION(capability(name))
#define SHOAL_SCOPED_CAPABILITY SHOAL_THREAD_ANNOTATION(scoped_lockable)
#define SHOAL_GUARDED_BY(lock) SHOAL_THREAD_ANNOTATION(guarded_by(lock))
#define SHOAL_PT_GUARDED_BY(lock) SHOAL_THREAD_ANNOTATION(pt_guarded_by(lock))
#define SHOAL_REQUIRES(...) SHOAL_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define SHOAL_EXCLUDES(...) SHOAL_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#define SHOAL_ACQUIRE(...) SHOAL_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define SHOAL_RELEASE(...) SHOAL_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define SHOAL_RETURN_CAPABILITY(lock) SHOAL_THREAD_ANNOTATION(lock_returned(lock))
#define SHOAL_ASSERT_CAPABILITY(lock) SHOAL_THREAD_ANNOTATION(assert_capability(lock))
#define SHOAL_NO_THREAD_SAFETY_ANALYSIS SHOAL_THREAD_ANNOTATION(no_thread_safety_analysis)
