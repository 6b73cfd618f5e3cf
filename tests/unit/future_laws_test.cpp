// SPDX-License-Identifier: Apache-2.0
// Property tests of future's functor and monad laws, and of the identities between its other
// operations: random values, random functions (that may fail by throwing or by with_failure)
// and random futures (complete at once or filled later, in a random order), from a fixed seed.
// Two futures are equal when, once everything pending is filled, both succeeded with equal
// values or both failed with equal failures.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "shoal/future.hpp"
#include "shoal/promise.hpp"

namespace {

using fut = shoal::future<int, std::string>;
using prom = shoal::promise<int, std::string>;
using outcome = std::variant<int, std::string>;

constexpr std::uint32_t seed = 20240917;
constexpr int cases = 2000;

// "<tag><a>,<b>" (appends, not operator+: g++ 12 -O3 warns falsely on `"x" + std::string`).
std::string label(const char* tag, int a, int b) {
  std::string s(tag);
  s += std::to_string(a);
  s += ',';
  s += std::to_string(b);
  return s;
}

// Promises to fill later; filled in a random order until none is left (filling one may make
// more: a flat_map's function runs when its source is filled).
class world {
 public:
  explicit world(std::uint32_t s) : rng_(s) {}

  int value() { return std::uniform_int_distribution<int>(-50, 50)(rng_); }
  bool chance(int percent) { return std::uniform_int_distribution<int>(0, 99)(rng_) < percent; }

  // A future of `v` (or failed with `why`): complete now, or filled later.
  fut make(outcome v) {
    if (chance(50)) {
      return std::holds_alternative<int>(v) ? fut::successful(std::get<int>(v))
                                            : fut::failed(std::get<std::string>(v));
    }
    prom p;
    pending_.emplace_back(p, std::move(v));
    return p.get_future();
  }
  fut random_future() {
    if (chance(25)) return make(label("m", value(), 0));
    return make(value());
  }

  void settle() {
    while (!pending_.empty()) {
      const std::size_t i =
          std::uniform_int_distribution<std::size_t>(0, pending_.size() - 1)(rng_);
      auto [p, v] = std::move(pending_[i]);
      pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(i));
      if (std::holds_alternative<int>(v)) {
        p.success(std::get<int>(v));
      } else {
        p.failure(std::get<std::string>(v));
      }
    }
  }

  std::mt19937& rng() { return rng_; }

 private:
  std::mt19937 rng_;
  std::vector<std::pair<prom, outcome>> pending_;
};

outcome outcome_of(const fut& f) {
  EXPECT_TRUE(f.is_completed()) << "still pending after everything was filled";
  if (f.is_succeeded()) return f.value();
  return f.failure();
}

// A random function int -> int: x * a + b, failing (by throwing, or by with_failure) for
// x divisible by `fail_every`.
struct plain_fn {
  int a = 1;
  int b = 0;
  int fail_every = 0;  // 0: never fails
  bool by_throw = false;

  int operator()(int x) const {
    if (fail_every != 0 && x % fail_every == 0) {
      if (by_throw) throw std::runtime_error(label("f", a, x));
      return shoal::with_failure<std::string>(label("w", b, x));
    }
    return x * a + b;
  }
  static plain_fn random(world& w) {
    plain_fn f;
    f.a = std::uniform_int_distribution<int>(-3, 3)(w.rng());
    f.b = w.value();
    f.fail_every = w.chance(40) ? std::uniform_int_distribution<int>(2, 5)(w.rng()) : 0;
    f.by_throw = w.chance(50);
    return f;
  }
};

// A random function int -> future<int>: its result (from plain_fn) as a future complete now or
// filled later; it may also throw before returning any future.
struct monadic_fn {
  plain_fn inner;
  world* w = nullptr;
  int throw_every = 0;

  fut operator()(int x) const {
    if (throw_every != 0 && x % throw_every == 0) throw std::runtime_error(label("k", x, 0));
    try {
      return w->make(inner(x));
    } catch (const shoal::detail::failure_carrier<std::string>& c) {  // from with_failure
      return w->make(c.failure);
    } catch (const std::exception& e) {
      return w->make(std::string(e.what()));
    }
  }
  static monadic_fn random(world& w) {
    return {plain_fn::random(w), &w,
            w.chance(20) ? std::uniform_int_distribution<int>(2, 7)(w.rng()) : 0};
  }
};

// k(x) itself as a future: a k that throws gives the failure the same exception makes.
fut lift(const monadic_fn& k, int x) {
  try {
    return k(x);
  } catch (const std::exception& e) {
    return fut::failed(e.what());
  }
}

TEST(FutureLaws, FunctorIdentity) {
  world w(seed);
  for (int i = 0; i < cases; ++i) {
    fut m = w.random_future();
    fut mapped = m.map([](int x) { return x; });
    w.settle();
    ASSERT_EQ(outcome_of(mapped), outcome_of(m)) << "case " << i;
  }
}

TEST(FutureLaws, FunctorComposition) {
  world w(seed + 1);
  for (int i = 0; i < cases; ++i) {
    fut m = w.random_future();
    plain_fn f = plain_fn::random(w);
    plain_fn g = plain_fn::random(w);
    fut two_steps = m.map(f).map(g);
    fut composed = m.map([f, g](int x) { return g(f(x)); });
    w.settle();
    ASSERT_EQ(outcome_of(two_steps), outcome_of(composed)) << "case " << i;
  }
}

TEST(FutureLaws, MonadLeftIdentity) {
  world w(seed + 2);
  for (int i = 0; i < cases; ++i) {
    const int a = w.value();
    monadic_fn k = monadic_fn::random(w);
    fut bound = fut::successful(a).flat_map(k);
    fut direct = lift(k, a);
    w.settle();
    ASSERT_EQ(outcome_of(bound), outcome_of(direct)) << "case " << i;
  }
}

TEST(FutureLaws, MonadRightIdentity) {
  world w(seed + 3);
  for (int i = 0; i < cases; ++i) {
    fut m = w.random_future();
    fut bound = m.flat_map([](int x) { return fut::successful(x); });
    w.settle();
    ASSERT_EQ(outcome_of(bound), outcome_of(m)) << "case " << i;
  }
}

TEST(FutureLaws, MonadAssociativity) {
  world w(seed + 4);
  for (int i = 0; i < cases; ++i) {
    fut m = w.random_future();
    monadic_fn k = monadic_fn::random(w);
    monadic_fn h = monadic_fn::random(w);
    fut left = m.flat_map(k).flat_map(h);
    fut right = m.flat_map([k, h](int x) { return k(x).flat_map(h); });
    w.settle();
    ASSERT_EQ(outcome_of(left), outcome_of(right)) << "case " << i;
  }
}

TEST(FutureLaws, MapIsFlatMapOfSuccessful) {
  world w(seed + 5);
  for (int i = 0; i < cases; ++i) {
    fut m = w.random_future();
    plain_fn f = plain_fn::random(w);
    fut mapped = m.map(f);
    fut bound = m.flat_map([f](int x) { return fut::successful(f(x)); });
    w.settle();
    ASSERT_EQ(outcome_of(mapped), outcome_of(bound)) << "case " << i;
  }
}

TEST(FutureLaws, IdentitiesOfTheOtherOperations) {
  world w(seed + 6);
  for (int i = 0; i < cases; ++i) {
    fut m = w.random_future();
    const int v = w.value();
    plain_fn f = plain_fn::random(w);
    fut filtered_true = m.filter([](int) { return true; });
    fut same_failure = m.map_failure([](const std::string& s) { return s; });
    fut recovered = m.recover([v](const std::string&) { return v; });
    fut recovered_with = m.recover_with([v](const std::string&) { return fut::successful(v); });
    fut zipped_first =
        m.zip_value(v).map([](const std::tuple<int, int>& t) { return std::get<0>(t); });
    fut sequenced = shoal::sequence(std::vector<fut>{m}).map([](const std::vector<int>& xs) {
      return xs.at(0);
    });
    fut then_value = m.and_then_value(v);
    fut then = m.and_then([v] { return fut::successful(v); });
    fut inner_mapped = shoal::sequence(std::vector<fut>{m, m})
                           .inner_map(f)
                           .inner_reduce([](int acc, int x) { return acc + x; }, 0);
    fut doubled = m.map(f).map([](int x) { return x + x; });
    w.settle();
    const outcome om = outcome_of(m);
    ASSERT_EQ(outcome_of(filtered_true), om) << "case " << i;
    ASSERT_EQ(outcome_of(same_failure), om) << "case " << i;
    ASSERT_EQ(outcome_of(zipped_first), om) << "case " << i;
    ASSERT_EQ(outcome_of(sequenced), om) << "case " << i;
    const outcome rec = std::holds_alternative<int>(om) ? om : outcome(v);
    ASSERT_EQ(outcome_of(recovered), rec) << "case " << i;
    ASSERT_EQ(outcome_of(recovered_with), rec) << "case " << i;
    const outcome replaced = std::holds_alternative<int>(om) ? outcome(v) : om;
    ASSERT_EQ(outcome_of(then_value), replaced) << "case " << i;
    ASSERT_EQ(outcome_of(then), replaced) << "case " << i;
    ASSERT_EQ(outcome_of(inner_mapped), outcome_of(doubled)) << "case " << i;
  }
}

TEST(FutureLaws, SequenceEqualsAFoldOfZips) {
  world w(seed + 7);
  for (int i = 0; i < cases / 4; ++i) {
    const int n = std::uniform_int_distribution<int>(0, 6)(w.rng());
    std::vector<fut> fs;
    fs.reserve(static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j) fs.push_back(w.random_future());
    fut summed =
        shoal::sequence(fs).inner_reduce([](int acc, int x) { return (acc * 31 + x) % 100003; }, 7);
    fut folded = fut::successful(7);
    for (const fut& f : fs) {
      folded = folded.zip(f).map([](const std::tuple<int, int>& t) {
        return (std::get<0>(t) * 31 + std::get<1>(t)) % 100003;
      });
    }
    w.settle();
    // Equal values; on failure both fail, sequence with the first failure in order, the fold
    // with one of the failures: compare that both failed.
    const outcome a = outcome_of(summed);
    const outcome b = outcome_of(folded);
    ASSERT_EQ(a.index(), b.index()) << "case " << i;
    if (std::holds_alternative<int>(a)) {
      ASSERT_EQ(a, b) << "case " << i;
    }
  }
}

}  // namespace
