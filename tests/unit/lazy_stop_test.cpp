// SPDX-License-Identifier: Apache-2.0
// Stop callbacks on a fork scope's lazy stop (shoal/detail/lazy_stop.hpp), registered through
// host_stop_callback (what the batchers' hosts hold): a stop before, while and after a callback
// is registered; a parent's stop, lazy or plain, reaching a nested scope's callbacks; removal
// before and during a run; and none of it making the scope's std::stop_source.
#include <gtest/gtest.h>

#include <stop_token>

#include "shoal/detail/host_stop_callback.hpp"
#include "shoal/detail/lazy_stop.hpp"
#include "shoal/detail/stop_ref.hpp"

namespace {

using shoal::detail::host_stop_callback;
using shoal::detail::lazy_stop;
using shoal::detail::stop_ref;

struct count_runs {
  int* runs;
  void operator()() const noexcept { ++*runs; }
};
using counting_callback = host_stop_callback<count_runs>;

TEST(LazyStopCallback, AStopAfterRegistrationRunsItOnceWithoutMakingTheToken) {
  lazy_stop scope;
  int runs = 0;
  counting_callback cb;
  cb.emplace(stop_ref(scope), count_runs{&runs});
  EXPECT_EQ(runs, 0);
  scope.request_stop();
  EXPECT_EQ(runs, 1);
  scope.request_stop();  // a second request runs nothing again
  EXPECT_EQ(runs, 1);
  cb.reset();
  EXPECT_FALSE(scope.token_made());
}

TEST(LazyStopCallback, RegisteredOnAStoppedScopeItRunsAtOnce) {
  lazy_stop scope;
  scope.request_stop();
  int runs = 0;
  counting_callback cb;
  cb.emplace(stop_ref(scope), count_runs{&runs});
  EXPECT_EQ(runs, 1);
  cb.reset();  // nothing registered: nothing to wait for
  EXPECT_FALSE(scope.token_made());
}

TEST(LazyStopCallback, ResetBeforeTheStopMeansItNeverRuns) {
  lazy_stop scope;
  int first = 0;
  int second = 0;
  counting_callback a;
  counting_callback b;
  a.emplace(stop_ref(scope), count_runs{&first});
  b.emplace(stop_ref(scope), count_runs{&second});
  a.reset();
  scope.request_stop();
  EXPECT_EQ(first, 0);
  EXPECT_EQ(second, 1);
  b.reset();
}

// Two callbacks: the first links the scope to its parent, the second must not link it again
// (each runs once).
TEST(LazyStopCallback, ALazyParentsStopRunsANestedScopesCallbacks) {
  lazy_stop outer;
  lazy_stop inner(stop_ref{outer});
  int runs = 0;
  counting_callback a;
  counting_callback b;
  a.emplace(stop_ref(inner), count_runs{&runs});
  b.emplace(stop_ref(inner), count_runs{&runs});
  outer.request_stop();
  EXPECT_EQ(runs, 2);
  EXPECT_TRUE(stop_ref(inner).stop_requested());
  a.reset();
  b.reset();
  EXPECT_FALSE(outer.token_made());
  EXPECT_FALSE(inner.token_made());
}

TEST(LazyStopCallback, APlainParentTokensStopRunsTheScopesCallbacks) {
  std::stop_source source;
  const std::stop_token token = source.get_token();
  lazy_stop scope(stop_ref{token});
  int runs = 0;
  counting_callback cb;
  cb.emplace(stop_ref(scope), count_runs{&runs});
  source.request_stop();
  EXPECT_EQ(runs, 1);
  cb.reset();
  EXPECT_FALSE(scope.token_made());
}

// The scope itself was never stopped, but its parent was, before the first callback linked the
// scope to it: the link's construction must run the callback (inside the registration).
TEST(LazyStopCallback, AParentStoppedBeforeTheFirstRegistrationRunsItAtOnce) {
  lazy_stop outer;
  lazy_stop inner(stop_ref{outer});
  outer.request_stop();
  int runs = 0;
  counting_callback cb;
  cb.emplace(stop_ref(inner), count_runs{&runs});
  EXPECT_EQ(runs, 1);
  cb.reset();

  std::stop_source source;
  source.request_stop();
  const std::stop_token token = source.get_token();
  lazy_stop under_plain(stop_ref{token});
  int plain_runs = 0;
  counting_callback on_plain;
  on_plain.emplace(stop_ref(under_plain), count_runs{&plain_runs});
  EXPECT_EQ(plain_runs, 1);
  on_plain.reset();
}

// A callback whose run removes itself (as a resumed caller destroying its awaiter would): the
// removal returns at once, and the run touches the node no more (ASan would see it).
struct resets_itself {
  host_stop_callback<resets_itself>* self;
  int* runs;
  void operator()() const noexcept {
    ++*runs;
    self->reset();
  }
};

TEST(LazyStopCallback, ACallbackMayRemoveItselfFromItsOwnRun) {
  lazy_stop scope;
  int runs = 0;
  auto* cb = new host_stop_callback<resets_itself>;
  cb->emplace(stop_ref(scope), resets_itself{cb, &runs});
  int later = 0;
  counting_callback after;  // registered second, so it runs first (a stack)
  after.emplace(stop_ref(scope), count_runs{&later});
  scope.request_stop();
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(later, 1);
  delete cb;  // reset by its run
  after.reset();
}

}  // namespace
