// SPDX-License-Identifier: Apache-2.0
// shoal/detail/future_steps.hpp: the states that transformations, zip and sequence produce.
//
// Every transformation of a future allocates exactly one object: the state of the future it
// returns, with the node that listens to the source inside it (`step`). flat_map and
// recover_with produce a `following_state`, which has a second node inside it to listen to the
// future their function returns. zip has one node per input inside its state; sequence one node
// that walks the inputs in order. Callbacks (on_success, ...) are a node of their own.
//
// Exceptions: the body of a step runs under `guarded`, which turns whatever it throws into the
// step's failure (failure_traits<E>, with_failure's carrier, future_failure<E>).
// Thread-safety: as future_state.hpp; each node fires once.
#pragma once

#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <optional>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>

#include "shoal/detail/future_state.hpp"
#include "shoal/future_failure.hpp"

namespace shoal::detail {

// Reaches the state inside a future handle, and makes handles from states (futures befriend it).
struct future_access {
  template <class F>
  static auto& state(const F& f) {
    return f.state();
  }
  template <class F>
  static auto ptr(const F& f) {
    return f.state_ptr_copy();
  }
  template <class F, class S>
  static F adopt(state_ptr<S> s) noexcept {
    return F(std::move(s));
  }
};

// void results become std::monostate.
template <class R>
using value_of_t = std::conditional_t<std::is_void_v<R>, std::monostate, std::remove_cvref_t<R>>;

template <class F, class... Args>
value_of_t<std::invoke_result_t<F&, Args...>> invoke_value(F& f, Args&&... args) {
  if constexpr (std::is_void_v<std::invoke_result_t<F&, Args...>>) {
    std::invoke(f, std::forward<Args>(args)...);
    return {};
  } else {
    return std::invoke(f, std::forward<Args>(args)...);
  }
}

// Fails `out` with the exception in flight (called from a catch handler).
template <class E, class Out>
void fail_with_current_exception(Out& out) noexcept {
  try {
    throw;
  } catch (failure_carrier<E>& carried) {
    out.fail(std::move(carried.failure));
  } catch (future_failure<E>& failed) {
    out.fail(failed.failure());
  } catch (...) {
    out.fail(failure_traits<E>::from_exception(std::current_exception()));
  }
}

// Runs `body`; whatever it throws fails `out`.
template <class E, class Out, class Body>
void guarded(Out& out, Body&& body) noexcept {
  try {
    std::forward<Body>(body)();
  } catch (...) {
    fail_with_current_exception<E>(out);
  }
}

// The value of `source` for another state: copied, or moved when T cannot be copied.
template <class T, class E>
decltype(auto) pass_on(future_state<T, E>& source) noexcept {
  if constexpr (std::is_copy_constructible_v<T>) {
    return static_cast<const T&>(source.value());
  } else {
    return static_cast<T&&>(source.value());
  }
}

// A future state that can also be filled with the outcome of another state of its type.
template <class U, class E>
class following_state : public future_state<U, E>, private continuation_as<U, E, 1> {
  using follower = continuation_as<U, E, 1>;

 public:
  following_state() noexcept : follower(&fire_follow) {}

  // Fills this state with `inner`'s outcome once it completes (at once if it has).
  void follow(future_state<U, E>& inner) noexcept {
    this->add_ref();  // held by the node until it fires
    inner.then(follower::as_node());
  }

 private:
  static void fire_follow(continuation<U, E>& c, future_state<U, E>& inner) noexcept {
    auto& self = static_cast<following_state&>(static_cast<follower&>(c));
    if (inner.succeeded()) {
      self.succeed(pass_on(inner));
    } else {
      self.fail(inner.failure());
    }
    self.release();
  }
};

// The state a transformation returns (Out: future_state<U, E2> or following_state<U, E2>) and
// the node listening to its source, in one allocation. `body(out, source)` runs once, when the
// source is complete, and fills `out` (now, or later through follow()).
template <class T, class E, class Out, class Body>
class step final : public Out, private continuation_as<T, E, 0> {
  using listener = continuation_as<T, E, 0>;

 public:
  explicit step(Body body) : listener(&fire_step), body_(std::move(body)) {}

  void listen(future_state<T, E>& source) noexcept {
    this->add_ref();  // held by the node until it fires
    source.then(listener::as_node());
  }

 private:
  static void fire_step(continuation<T, E>& c, future_state<T, E>& source) noexcept {
    auto& self = static_cast<step&>(static_cast<listener&>(c));
    if (self.body_) (*self.body_)(static_cast<Out&>(self), source);  // always set: fires once
    self.body_.reset();  // what the function captured goes now, not with the future
    self.release();
  }

  std::optional<Body> body_;
};

template <class Out, class T, class E, class Body>
state_ptr<Out> start_step(future_state<T, E>& source, Body&& body) {
  auto* s = new step<T, E, Out, std::decay_t<Body>>(std::forward<Body>(body));
  state_ptr<Out> result(s);
  s->listen(source);
  return result;
}

// on_success / on_failure / on_finished: `body(source)` runs once; exceptions are dropped.
template <class T, class E, class Body>
class callback_node final : public continuation<T, E> {
 public:
  static void* operator new(std::size_t size) { return frame_allocate_sized(size); }
  static void operator delete(void* p, std::size_t size) noexcept {
    frame_deallocate_sized(p, size);
  }

  explicit callback_node(Body body) : continuation<T, E>(&fire_callback), body_(std::move(body)) {}

 private:
  static void fire_callback(continuation<T, E>& c, future_state<T, E>& source) noexcept {
    auto* self = static_cast<callback_node*>(&c);
    try {
      self->body_(source);
    } catch (...) {  // NOLINT(bugprone-empty-catch): a callback cannot fail its future
    }
    delete self;
  }

  Body body_;
};

// zip: a tuple of the inputs' values (a tuple input contributes its elements).
template <class T>
struct as_tuple {
  static std::tuple<T> make(const T& v) { return std::tuple<T>(v); }
};
template <class... Ts>
struct as_tuple<std::tuple<Ts...>> {
  static std::tuple<Ts...> make(const std::tuple<Ts...>& v) { return v; }
};
template <class... Ts>
using zip_result_t = decltype(std::tuple_cat(as_tuple<Ts>::make(std::declval<const Ts&>())...));

template <class E, class Indices, class... Ts>
class zip_state;

template <class E, std::size_t... I, class... Ts>
class zip_state<E, std::index_sequence<I...>, Ts...> final
    : public future_state<zip_result_t<Ts...>, E> {
  template <std::size_t K>
  using input_t = std::tuple_element_t<K, std::tuple<Ts...>>;

  template <std::size_t K>
  struct input_node : continuation<input_t<K>, E> {
    explicit input_node(zip_state* o) noexcept
        : continuation<input_t<K>, E>(&fire_input), owner(o) {}
    static void fire_input(continuation<input_t<K>, E>& c,
                           future_state<input_t<K>, E>& source) noexcept {
      static_cast<input_node&>(c).owner->arrived(source);
    }
    zip_state* owner;
  };

 public:
  explicit zip_state(state_ptr<future_state<Ts, E>>... inputs)
      : inputs_(std::move(inputs)...), nodes_(input_node<I>(this)...) {}

  void start() noexcept {
    ((static_cast<void>(I), this->add_ref()), ...);  // one per node, held until it fires
    (std::get<I>(inputs_)->then(&std::get<I>(nodes_)), ...);
  }

 private:
  template <class V>
  void arrived(future_state<V, E>& source) noexcept {
    if (source.failed()) this->fail(source.failure());
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      if ((std::get<I>(inputs_)->succeeded() && ...)) {
        guarded<E>(*this, [this] {
          this->succeed(std::tuple_cat(as_tuple<Ts>::make(std::get<I>(inputs_)->value())...));
        });
      }
      inputs_ = {};  // the last node: nothing reads them any more; do not keep them alive
    }
    this->release();
  }

  std::tuple<state_ptr<future_state<Ts, E>>...> inputs_;
  std::tuple<input_node<I>...> nodes_;
  std::atomic<std::size_t> pending_{sizeof...(Ts)};
};

// Sequences: containers of futures, of values, and the inner_* operations.
template <class C>
concept sequence_container = requires(C& c, const C& cc) {
  typename C::value_type;
  cc.begin();
  cc.end();
  cc.size();
  c.push_back(std::declval<typename C::value_type>());
};

// C<X, ...> -> C<U> (std::vector<X> -> std::vector<U>, std::deque, std::list alike).
template <class C, class U>
struct rebind_sequence;
template <template <class...> class C, class X, class... Rest, class U>
struct rebind_sequence<C<X, Rest...>, U> {
  using type = C<U>;
};
template <class C, class U>
using rebind_sequence_t = typename rebind_sequence<C, U>::type;

template <class C>
void reserve_for(C& c, std::size_t n) {
  if constexpr (requires { c.reserve(n); }) c.reserve(n);
}

// sequence(futures): walks the inputs in order with one node, waiting on the first incomplete
// one; fails with the first failure in that order. KeepFailures: never fails, collects every
// value and every failure by index instead.
template <class T, class E, class In, class Out, bool KeepFailures>
class sequence_state final : public future_state<Out, E>, private continuation<T, E> {
 public:
  explicit sequence_state(In inputs) : continuation<T, E>(&fire_next), inputs_(std::move(inputs)) {
    if constexpr (!KeepFailures) reserve_for(result_, inputs_.size());
  }

  void start() noexcept {
    this->add_ref();  // held by the walk until it ends
    at_ = inputs_.begin();
    walk();
  }

 private:
  void walk() noexcept {
    while (at_ != inputs_.end()) {
      future_state<T, E>& s = future_access::state(*at_);
      if (s.add(this)) return;  // resumed by fire_next
      if (!take(s)) {
        end_walk();
        return;
      }
      ++at_;
      ++index_;
    }
    guarded<E>(*this, [this] { this->succeed(std::move(result_)); });
    end_walk();
  }
  void end_walk() noexcept {
    inputs_ = In{};  // the futures are not kept alive by a complete sequence
    this->release();
  }

  // Adds `s`'s outcome; false when the walk must stop (this state failed).
  bool take(future_state<T, E>& s) noexcept {
    guarded<E>(*this, [&] {
      if constexpr (KeepFailures) {
        if (s.succeeded()) {
          result_.first.emplace(index_, s.value());
        } else {
          result_.second.emplace(index_, s.failure());
        }
      } else {
        if (s.succeeded()) {
          result_.push_back(s.value());
        } else {
          this->fail(s.failure());
        }
      }
    });
    return !this->completed() && this->status() != fill_status::filling;
  }

  static void fire_next(continuation<T, E>& c, future_state<T, E>& source) noexcept {
    auto& self = static_cast<sequence_state&>(c);
    if (!self.take(source)) {
      self.end_walk();
      return;
    }
    ++self.at_;
    ++self.index_;
    self.walk();
  }

  In inputs_;
  typename In::iterator at_{};
  std::size_t index_ = 0;
  Out result_;
};

}  // namespace shoal::detail
