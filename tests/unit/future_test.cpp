// SPDX-License-Identifier: Apache-2.0
// future / promise / cancelable_future: filling, accessors, callbacks and every transformation,
// deterministically on the test's thread (and the manual scheduler for co_await).
#include "shoal/future.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <list>
#include <memory>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "shoal/promise.hpp"
#include "shoal/stop.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/timeout.hpp"
#include "support/manual_scheduler.hpp"

namespace {

using shoal::future;
using shoal::promise;
using shoal::task;
using shoal::with_failure;
using namespace std::chrono_literals;

using sfuture = future<int, std::string>;
using spromise = promise<int, std::string>;

template <class Ex, class T>
void expect_failed_with(const future<T>& f) {
  ASSERT_TRUE(f.is_failed());
  EXPECT_THROW(std::rethrow_exception(f.failure()), Ex);
}

// --- filling and reading ------------------------------------------------------------------------

TEST(Future, PromiseFillsOnceAndTheFirstFillWins) {
  spromise p;
  sfuture f = p.get_future();
  EXPECT_FALSE(p.is_filled());
  EXPECT_FALSE(f.is_completed());
  EXPECT_TRUE(p.success(1));
  EXPECT_FALSE(p.success(2));
  EXPECT_FALSE(p.failure("late"));
  EXPECT_TRUE(p.is_filled());
  EXPECT_TRUE(f.is_completed());
  EXPECT_TRUE(f.is_succeeded());
  EXPECT_FALSE(f.is_failed());
  EXPECT_EQ(f.value(), 1);
  EXPECT_EQ(f.result(), 1);
  EXPECT_THROW(static_cast<void>(f.failure()), shoal::bad_future_access);
}

TEST(Future, SuccessfulAndFailedAreCompleteAtOnce) {
  auto ok = sfuture::successful(7);
  auto bad = sfuture::failed("nope");
  EXPECT_TRUE(ok.is_succeeded());
  EXPECT_EQ(ok.value(), 7);
  EXPECT_TRUE(bad.is_failed());
  EXPECT_EQ(bad.failure(), "nope");
  try {
    static_cast<void>(bad.value());
    ADD_FAILURE() << "value() of a failed future returned";
  } catch (const shoal::future_failure<std::string>& e) {
    EXPECT_EQ(e.failure(), "nope");
  }
}

TEST(Future, ExceptionPtrFailureIsRethrownAsIs) {
  auto bad = future<int>::failed(std::make_exception_ptr(std::out_of_range("far")));
  EXPECT_THROW(static_cast<void>(bad.value()), std::out_of_range);
}

TEST(Future, InvalidHandleThrowsBadFutureAccess) {
  future<int> f;
  EXPECT_FALSE(f.valid());
  EXPECT_THROW(static_cast<void>(f.is_completed()), shoal::bad_future_access);
  EXPECT_THROW(static_cast<void>(f.map([](int x) { return x; })), shoal::bad_future_access);
  future<int> g = future<int>::successful(1);
  future<int> h = std::move(g);
  EXPECT_FALSE(g.valid());  // NOLINT(bugprone-use-after-move): testing the moved-from state
  EXPECT_TRUE(h.valid());
}

TEST(Future, BrokenPromiseFailsTheFuture) {
  future<int> f;
  {
    std::optional<promise<int>> p(std::in_place);
    promise<int> copy = *p;
    f = copy.get_future();
    p.reset();
    EXPECT_FALSE(f.is_completed()) << "broke while a copy of the promise lives";
    copy.success(1);
  }
  EXPECT_EQ(f.value(), 1);
  {
    f = promise<int>().get_future();
  }
  expect_failed_with<shoal::broken_promise>(f);

  sfuture g;
  {
    g = spromise().get_future();
  }
  ASSERT_TRUE(g.is_failed());
  EXPECT_NE(g.failure().find("promise destroyed"), std::string::npos);
}

TEST(Future, FilledPromiseDestroyedLeavesTheValue) {
  future<int> f;
  {
    promise<int> p;
    f = p.get_future();
    p.success(3);
  }
  EXPECT_EQ(f.value(), 3);
}

TEST(Future, MoveOnlyValues) {
  promise<std::unique_ptr<int>> p;
  auto f = p.get_future();
  int seen = 0;
  f.on_success([&](const std::unique_ptr<int>& v) { seen = *v; });
  auto doubled = f.map([](const std::unique_ptr<int>& v) { return std::make_unique<int>(*v * 2); });
  auto chained = doubled.flat_map([](const std::unique_ptr<int>& v) {
    return future<std::unique_ptr<int>>::successful(std::make_unique<int>(*v + 1));
  });
  p.success(std::make_unique<int>(20));
  EXPECT_EQ(seen, 20);
  EXPECT_EQ(*f.value(), 20);
  EXPECT_EQ(*doubled.value(), 40);
  EXPECT_EQ(*chained.value(), 41);
}

// --- callbacks ----------------------------------------------------------------------------------

TEST(Future, CallbacksRunInRegistrationOrderOnTheFillingThread) {
  spromise p;
  std::vector<int> order;
  std::thread::id ran_on;
  auto f = p.get_future();
  f.on_success([&](int) { order.push_back(1); })
      .on_failure([&](const std::string&) { order.push_back(-1); })
      .on_finished([&] { order.push_back(2); })
      .on_success([&](int) {
        order.push_back(3);
        ran_on = std::this_thread::get_id();
      });
  EXPECT_TRUE(order.empty());
  std::thread filler([&] { p.success(5); });
  filler.join();
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
  EXPECT_NE(ran_on, std::this_thread::get_id());
}

TEST(Future, CallbackOnACompletedFutureRunsAtOnce) {
  auto f = sfuture::failed("x");
  int calls = 0;
  f.on_failure([&](const std::string& why) { calls += why == "x" ? 1 : 100; });
  f.on_success([&](int) { calls += 1000; });
  f.on_finished([&](const sfuture& same) { calls += same == f ? 10 : 10000; });
  EXPECT_EQ(calls, 11);
}

TEST(Future, AThrowingCallbackIsDroppedAndTheOthersStillRun) {
  spromise p;
  int calls = 0;
  p.get_future().on_success([](int) { throw std::runtime_error("ignored"); });
  p.get_future().on_success([&](int) { ++calls; });
  p.success(1);
  EXPECT_EQ(calls, 1);
}

// --- transformations ----------------------------------------------------------------------------

TEST(Future, MapAndMapFailure) {
  spromise p;
  auto f = p.get_future();
  auto m = f.map([](int x) { return std::to_string(x * 2); });
  auto v = f.map([](int) {});  // void -> std::monostate
  static_assert(std::is_same_v<decltype(m), future<std::string, std::string>>);
  static_assert(std::is_same_v<decltype(v), future<std::monostate, std::string>>);
  p.success(21);
  EXPECT_EQ(m.value(), "42");
  EXPECT_TRUE(v.is_succeeded());

  auto failed = sfuture::failed("bad");
  int calls = 0;
  auto not_called = failed.map([&](int x) { return ++calls + x; });
  EXPECT_EQ(not_called.failure(), "bad");
  EXPECT_EQ(calls, 0);
  auto as_exception = [](const std::string& s) {
    return std::make_exception_ptr(std::runtime_error(s));
  };
  auto converted = failed.map_failure(as_exception);
  static_assert(std::is_same_v<decltype(converted), future<int>>);
  expect_failed_with<std::runtime_error>(converted);
  EXPECT_EQ(sfuture::successful(1).map_failure(as_exception).value(), 1);
}

TEST(Future, FlatMapAndThen) {
  spromise outer;
  spromise inner;
  auto f = outer.get_future().flat_map(
      [&](int x) { return inner.get_future().map([x](int y) { return x + y; }); });
  outer.success(1);
  EXPECT_FALSE(f.is_completed()) << "completed before the inner future";
  inner.success(2);
  EXPECT_EQ(f.value(), 3);

  auto then = sfuture::successful(1).and_then([] { return sfuture::successful(9); });
  EXPECT_EQ(then.value(), 9);
  auto then_fail = sfuture::successful(1).and_then([] { return sfuture::failed("inner"); });
  EXPECT_EQ(then_fail.failure(), "inner");
  auto value = sfuture::successful(1).and_then_value(std::string("v"));
  EXPECT_EQ(value.value(), "v");
  EXPECT_EQ(sfuture::failed("e").and_then_value(5).failure(), "e");
}

TEST(Future, FilterRecover) {
  EXPECT_EQ(sfuture::successful(4).filter([](int x) { return x % 2 == 0; }).value(), 4);
  EXPECT_EQ(sfuture::successful(3).filter([](int x) { return x % 2 == 0; }, "odd").failure(),
            "odd");
  EXPECT_EQ(sfuture::successful(3).filter([](int x) { return x % 2 == 0; }).failure(),
            "shoal: filter rejected the value");
  EXPECT_EQ(
      sfuture::failed("e").recover([](const std::string& s) { return int(s.size()); }).value(), 1);
  EXPECT_EQ(sfuture::successful(8).recover([](const std::string&) { return 0; }).value(), 8);
  EXPECT_EQ(sfuture::failed("e").recover_value(5).value(), 5);
  EXPECT_EQ(sfuture::failed("e")
                .recover_with([](const std::string&) { return sfuture::successful(6); })
                .value(),
            6);
  EXPECT_EQ(sfuture::failed("e")
                .recover_with([](const std::string& s) { return sfuture::failed(s + "2"); })
                .failure(),
            "e2");
}

TEST(Future, ExceptionsInTransformationsBecomeFailures) {
  auto boom = [](int) -> int { throw std::invalid_argument("boom"); };
  EXPECT_EQ(sfuture::successful(1).map(boom).failure(), "boom");
  EXPECT_EQ(sfuture::successful(1)
                .flat_map([](int) -> sfuture { throw std::runtime_error("flat"); })
                .failure(),
            "flat");
  EXPECT_EQ(sfuture::successful(1).filter([](int) -> bool { throw 42; }).failure(),
            "unknown exception");
  EXPECT_EQ(sfuture::failed("x")
                .recover([](const std::string&) -> int { throw std::runtime_error("r"); })
                .failure(),
            "r");
  expect_failed_with<std::invalid_argument>(future<int>::successful(1).map(boom));
  // A failed future's value() read inside a transformation fails it with the same failure.
  auto inner_failed = sfuture::failed("original");
  EXPECT_EQ(sfuture::successful(1).map([&](int) { return inner_failed.value(); }).failure(),
            "original");
}

TEST(Future, WithFailureFailsAnyTransformation) {
  auto m = sfuture::successful(1).map([](int x) -> int {
    if (x == 1) return with_failure<std::string>("one");
    return x;
  });
  EXPECT_EQ(m.failure(), "one");
  auto fm = sfuture::successful(1).flat_map(
      [](int) -> sfuture { return with_failure<std::string>("flat"); });
  EXPECT_EQ(fm.failure(), "flat");
  auto r = sfuture::failed("").recover([](const std::string& s) -> int {
    if (s.empty()) return with_failure<std::string>("still");
    return 0;
  });
  EXPECT_EQ(r.failure(), "still");
  auto ptr = future<int>::successful(1).map([](int) -> int {
    return with_failure<std::exception_ptr>(std::make_exception_ptr(std::length_error("len")));
  });
  expect_failed_with<std::length_error>(ptr);
}

struct code_failure {
  int code = 0;
  std::string text;
};

}  // namespace

template <>
struct shoal::failure_traits<code_failure> {
  static code_failure from_exception(const std::exception_ptr& e) {
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& x) {
      return {-1, x.what()};
    } catch (...) {
      return {-2, "?"};
    }
  }
};

namespace {

struct ptr_failure {
  explicit ptr_failure(std::exception_ptr e) : error(std::move(e)) {}
  std::exception_ptr error;
};

TEST(Future, CustomFailureTypes) {
  auto f = future<int, code_failure>::successful(1).map(
      [](int) -> int { throw std::runtime_error("custom"); });
  EXPECT_EQ(f.failure().code, -1);
  EXPECT_EQ(f.failure().text, "custom");
  auto g = future<int, ptr_failure>::successful(1).map([](int) -> int { throw 5; });
  EXPECT_THROW(std::rethrow_exception(g.failure().error), int);
}

TEST(Future, ZipAndZipValue) {
  spromise a;
  promise<std::string, std::string> b;
  auto z = a.get_future().zip(b.get_future(), sfuture::successful(3));
  static_assert(
      std::is_same_v<decltype(z), future<std::tuple<int, std::string, int>, std::string>>);
  a.success(1);
  EXPECT_FALSE(z.is_completed());
  b.success("two");
  EXPECT_EQ(z.value(), std::make_tuple(1, std::string("two"), 3));

  auto flat = z.zip_value(4.5);
  static_assert(std::is_same_v<decltype(flat),
                               future<std::tuple<int, std::string, int, double>, std::string>>);
  EXPECT_EQ(std::get<3>(flat.value()), 4.5);
  auto free = shoal::zip(sfuture::successful(1), sfuture::successful(2));
  EXPECT_EQ(free.value(), std::make_tuple(1, 2));

  spromise slow;
  auto failed = slow.get_future().zip(sfuture::failed("fast"));
  EXPECT_EQ(failed.failure(), "fast") << "did not fail as soon as one input failed";
  slow.success(1);
  EXPECT_EQ(failed.failure(), "fast");
}

TEST(Future, SequenceKeepsOrderAndFailsWithTheFirstFailureInOrder) {
  std::vector<spromise> ps(4);
  std::vector<sfuture> fs;
  fs.reserve(ps.size());
  for (auto& p : ps) fs.push_back(p.get_future());
  auto all = shoal::sequence(fs);
  static_assert(std::is_same_v<decltype(all), future<std::vector<int>, std::string>>);
  for (int i : {3, 1, 0, 2}) {
    EXPECT_FALSE(all.is_completed());
    ps[static_cast<std::size_t>(i)].success(i * 10);
  }
  EXPECT_EQ(all.value(), (std::vector<int>{0, 10, 20, 30}));

  EXPECT_TRUE(shoal::sequence(std::vector<sfuture>{}).value().empty());
  std::list<sfuture> mixed{sfuture::successful(1), sfuture::failed("second"),
                           sfuture::failed("third")};
  auto failed = shoal::sequence(mixed);
  static_assert(std::is_same_v<decltype(failed), future<std::list<int>, std::string>>);
  EXPECT_EQ(failed.failure(), "second");
  EXPECT_THROW(static_cast<void>(shoal::sequence(std::vector<sfuture>(2))),
               shoal::bad_future_access);
  EXPECT_THROW(static_cast<void>(sfuture::successful(1).zip(sfuture())), shoal::bad_future_access);
}

TEST(Future, CancelableFuturesMixWithPlainOnes) {
  promise<int> a;
  promise<int> b;
  std::vector<shoal::cancelable_future<int>> fs{a.get_cancelable_future(),
                                                b.get_cancelable_future()};
  auto all = shoal::sequence(fs);
  static_assert(std::is_same_v<decltype(all), future<std::vector<int>>>);
  auto z = fs[0].zip(fs[1]);
  auto flat = future<int>::successful(0).flat_map([&](int) { return fs[1]; });
  a.success(1);
  b.success(2);
  EXPECT_EQ(all.value(), (std::vector<int>{1, 2}));
  EXPECT_EQ(z.value(), std::make_tuple(1, 2));
  EXPECT_EQ(flat.value(), 2);
}

TEST(Future, CompleteZipsAndSequencesDoNotKeepTheirInputsAlive) {
  std::weak_ptr<int> zipped;
  std::weak_ptr<int> sequenced;
  auto failed = future<std::shared_ptr<int>>::failed(std::make_exception_ptr(std::exception()));
  future<std::tuple<std::shared_ptr<int>, std::shared_ptr<int>>> z;
  future<std::vector<std::shared_ptr<int>>> all;
  {
    promise<std::shared_ptr<int>> p;
    promise<std::shared_ptr<int>> q;
    z = failed.zip(p.get_future());
    all = shoal::sequence(std::vector{failed, q.get_future()});
    auto v = std::make_shared<int>(1);
    auto w = std::make_shared<int>(2);
    zipped = v;
    sequenced = w;
    p.success(std::move(v));
    q.success(std::move(w));
  }
  EXPECT_TRUE(z.is_failed());
  EXPECT_TRUE(all.is_failed());
  EXPECT_TRUE(zipped.expired()) << "the failed zip keeps its other input's value alive";
  EXPECT_TRUE(sequenced.expired()) << "the failed sequence keeps its inputs alive";
}

TEST(Future, SequenceWithFailuresKeepsEveryOutcome) {
  std::deque<sfuture> fs{sfuture::successful(1), sfuture::failed("b"), sfuture::successful(3),
                         sfuture::failed("d")};
  auto all = shoal::sequence_with_failures(fs);
  const auto& [values, failures] = all.value();
  EXPECT_EQ(values.size(), 2U);
  EXPECT_EQ(values.at(0), 1);
  EXPECT_EQ(values.at(2), 3);
  EXPECT_EQ(failures.size(), 2U);
  EXPECT_EQ(failures.at(1), "b");
  EXPECT_EQ(failures.at(3), "d");
}

TEST(Future, InnerOperations) {
  using vfuture = future<std::vector<int>, std::string>;
  auto v = vfuture::successful(std::vector<int>{1, 2, 3, 4});
  EXPECT_EQ(v.inner_map([](int x) { return x * x; }).value(), (std::vector<int>{1, 4, 9, 16}));
  EXPECT_EQ(v.inner_map([](int x) { return std::to_string(x); }).value().back(), "4");
  EXPECT_EQ(v.inner_filter([](int x) { return x % 2 == 1; }).value(), (std::vector<int>{1, 3}));
  EXPECT_EQ(v.inner_reduce([](int acc, int x) { return acc + x; }, 100).value(), 110);
  auto nested = future<std::vector<std::vector<int>>, std::string>::successful(
      std::vector<std::vector<int>>{{1}, {}, {2, 3}});
  EXPECT_EQ(nested.inner_flatten().value(), (std::vector<int>{1, 2, 3}));
  auto boom = v.inner_map([](int x) -> int {
    if (x == 3) throw std::runtime_error("three");
    return x;
  });
  EXPECT_EQ(boom.failure(), "three");
}

TEST(Future, CancelFillsWithCanceledAndThePromiseSeesIt) {
  promise<int> p;
  auto f = p.get_cancelable_future();
  auto mapped = f.map([](int x) { return x + 1; });
  EXPECT_TRUE(f.cancel());
  EXPECT_FALSE(f.cancel());
  EXPECT_TRUE(p.is_filled());
  EXPECT_FALSE(p.success(1));
  expect_failed_with<shoal::future_canceled>(f);
  expect_failed_with<shoal::future_canceled>(mapped);
  EXPECT_FALSE(promise<int>().get_cancelable_future().valid() == false);
  auto done = [] {
    promise<int> q;
    q.success(1);
    return q.get_cancelable_future();
  }();
  EXPECT_FALSE(done.cancel());
  EXPECT_EQ(done.value(), 1);
}

// --- waiting ------------------------------------------------------------------------------------

TEST(Future, WaitForTimesOutThenWaitSeesTheFill) {
  promise<int> p;
  auto f = p.get_future();
  EXPECT_FALSE(f.wait_for(1ms));
  EXPECT_FALSE(f.wait_until(std::chrono::steady_clock::now() + 1ms));
  std::thread filler([p] { p.success(9); });
  f.wait();
  EXPECT_TRUE(f.wait_for(0ms));
  EXPECT_EQ(f.value(), 9);
  filler.join();
}

TEST(Future, WaitOnAnExecutorThreadIsAnErrorNotADeadlock) {
  promise<int> p;
  auto f = p.get_future();
  auto probe = [&]() -> task<bool> {
    try {
      f.wait();
    } catch (const std::logic_error&) {
      co_return true;
    }
    co_return false;
  };
  EXPECT_TRUE(shoal::sync_wait(probe()));
  // A complete future may be read anywhere.
  p.success(1);
  auto read = [&]() -> task<int> { co_return f.value(); };
  EXPECT_EQ(shoal::sync_wait(read()), 1);
}

TEST(Future, ALongPendingChainCompletesInBoundedStack) {
  promise<int> p;
  future<int> f = p.get_future();
  for (int i = 0; i < 200000; ++i) f = f.map([](int x) { return x + 1; });
  future<int> g = p.get_future();
  for (int i = 0; i < 50000; ++i) g = g.flat_map([](int x) { return future<int>::successful(x); });
  p.success(0);
  EXPECT_EQ(f.value(), 200000);
  EXPECT_EQ(g.value(), 0);
}

// --- co_await -----------------------------------------------------------------------------------

TEST(FutureAwait, PendingFutureResumesOnTheAwaitingExecutorNotTheFiller) {
  shoal::testing::manual_scheduler sched;
  promise<std::string> p;
  auto probe = [&]() -> task<std::string> { co_return co_await p.get_future(); };
  auto s = sched.spawn(probe());
  sched.run_all();
  EXPECT_FALSE(s.done());
  std::thread filler([p] { p.success("hi"); });
  filler.join();
  EXPECT_FALSE(s.done()) << "resumed on the filling thread";
  EXPECT_EQ(sched.ready_count(), 1U);
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), "hi");
}

TEST(FutureAwait, CompletedFutureDoesNotSuspendAndFailuresAreThrown) {
  shoal::testing::manual_scheduler sched;
  auto probe = []() -> task<int> {
    auto ok = future<int>::successful(2);
    const int& ref = co_await ok;
    int moved = co_await future<int>::successful(3);
    try {
      co_await future<int, std::string>::failed("no");
    } catch (const shoal::future_failure<std::string>& e) {
      if (e.failure() != "no") co_return -1;
    }
    try {
      co_await future<int>::failed(std::make_exception_ptr(std::range_error("r")));
    } catch (const std::range_error&) {
      co_return ref + moved;
    }
    co_return -2;
  };
  auto s = sched.spawn(probe());
  EXPECT_EQ(sched.run_all(), 1U);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), 5);
}

TEST(FutureAwait, MoveOnlyValueIsMovedOut) {
  shoal::testing::manual_scheduler sched;
  promise<std::unique_ptr<int>> p;
  auto probe = [&]() -> task<int> {
    std::unique_ptr<int> v = co_await p.get_future();
    co_return *v;
  };
  auto s = sched.spawn(probe());
  sched.run_all();
  p.success(std::make_unique<int>(8));
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), 8);
}

TEST(FutureAwait, AStopRequestWakesTheAwaitAndTheFutureStillCompletes) {
  shoal::testing::manual_scheduler sched;
  promise<int> p;
  std::stop_source source;
  auto probe = [&]() -> task<int> {
    try {
      co_return co_await p.get_future();
    } catch (const shoal::future_canceled&) {
      co_return -1;
    }
  };
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), probe()));
  sched.run_all();
  EXPECT_FALSE(s.done());
  std::thread stopper([&] { source.request_stop(); });
  stopper.join();
  EXPECT_EQ(sched.ready_count(), 1U) << "the stop did not post the coroutine";
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), -1);
  // The future is untouched, and its (still registered) node goes when it is filled.
  auto later = p.get_future();
  EXPECT_FALSE(later.is_completed());
  p.success(4);
  EXPECT_EQ(later.value(), 4);
}

TEST(FutureAwait, StoppableChainStillGetsTheValue) {
  shoal::testing::manual_scheduler sched;
  promise<int> p;
  std::stop_source source;
  auto probe = [&]() -> task<int> { co_return co_await p.get_future(); };
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), probe()));
  sched.run_all();
  p.success(6);
  source.request_stop();  // after the fire won: changes nothing
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), 6);
  // Complete before the await: no suspension even on a stoppable chain.
  auto ready = [&]() -> task<int> { co_return co_await p.get_future(); };
  std::stop_source other;
  auto r = sched.spawn(shoal::with_stop_token(other.get_token(), ready()));
  sched.run_all();
  EXPECT_EQ(r.get(), 6);
}

TEST(FutureAwait, AStopBeforeTheAwaitThrowsWithoutSuspending) {
  shoal::testing::manual_scheduler sched;
  promise<int> p;
  std::stop_source source;
  source.request_stop();
  auto probe = [&]() -> task<bool> {
    try {
      co_await p.get_future();
    } catch (const shoal::future_canceled&) {
      co_return true;
    }
    co_return false;
  };
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), probe()));
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_TRUE(s.get());
}

TEST(FutureAwait, WithTimeoutBoundsTheWait) {
  shoal::testing::manual_scheduler sched;
  promise<int> p;
  auto probe = [&]() -> task<bool> {
    try {
      co_await shoal::with_timeout(10s, p.get_future());
    } catch (const shoal::future_canceled&) {
      co_return true;
    }
    co_return false;
  };
  auto s = sched.spawn(probe());
  sched.run_all();
  EXPECT_FALSE(s.done());
  sched.advance(10s);
  ASSERT_TRUE(s.done());
  EXPECT_TRUE(s.get());
}

}  // namespace
