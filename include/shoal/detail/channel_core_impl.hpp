// SPDX-License-Identifier: Apache-2.0
// shoal/detail/channel_core_impl.hpp: the member functions of channel_core<T>
// (shoal/detail/channel_core.hpp, which says how the two sides meet); included by
// shoal/detail/channel.hpp after the awaiters.
#pragma once

#include <atomic>
#include <cstddef>
#include <optional>
#include <utility>

#include "shoal/detail/channel_core.hpp"
#include "shoal/detail/spin_lock.hpp"
#include "shoal/detail/wait_queue.hpp"

namespace shoal::detail {

template <class T>
bool channel_core<T>::has_waiters() const noexcept {
  bool any = false;
  {
    const spin_lock::guard guard(tx_.lock);
    any = !tx_.waiting.empty() || !tx_.rendezvous_receivers.empty();
  }
  const spin_lock::guard guard(rx_.lock);
  return any || !rx_.waiting.empty();
}

template <class T>
wait_site channel_core<T>::send_site() noexcept {
  if (capacity_ == 0) return {&tx_.lock, &tx_.waiting, &attempt_send_rendezvous, this, true};
  return {&tx_.lock, &tx_.waiting, &attempt_send, this, true, &settle_site};
}

template <class T>
wait_site channel_core<T>::receive_site() noexcept {
  if (capacity_ == 0) {
    return {&tx_.lock, &tx_.rendezvous_receivers, &attempt_receive_rendezvous, this, true};
  }
  return {&rx_.lock, &rx_.waiting, &attempt_receive, this, true, &settle_site};
}

// ---- the sender side ----

template <class T>
std::size_t channel_core<T>::room_locked(std::size_t tail, bool fresh) noexcept {
  if (fresh || tail - tx_.head_seen == capacity_) {
    // seq_cst: pairs with publish_head()'s store (acquire: the cells it freed are ours), and,
    // after an announcement, is its Dekker re-check (channel_core.hpp).
    tx_.head_seen = rx_.head.load(std::memory_order_seq_cst);
  }
  return capacity_ - (tail - tx_.head_seen);
}

template <class T>
template <class U>
void channel_core<T>::push_locked(U&& value) noexcept {
  cells_.put(tx_.tail_pos, std::forward<U>(value));
  if (++tx_.tail_pos == capacity_) tx_.tail_pos = 0;
}

template <class T>
void channel_core<T>::publish_tail(std::size_t tail) noexcept {
  // seq_cst: release for the cells written before it (pairs with available_locked()'s load);
  // ordered before the load of announce_.receivers that follows it (Dekker, with
  // receive_or_announce_locked()'s store of it and load of tail).
  tx_.tail.store(tail, std::memory_order_seq_cst);
}

// Moves queued senders' values in, oldest first, once the ring is at most half full; true when
// it admitted any.
template <class T>
bool channel_core<T>::admit_locked(wake_list& woken) noexcept {
  if (tx_.waiting.empty()) return false;
  std::size_t tail = tx_.tail.load(std::memory_order_relaxed);  // only stored under our lock
  const std::size_t room = room_locked(tail, /*fresh=*/true);
  if (2 * room < capacity_) return false;  // more than half full: a later receive admits them
  for (std::size_t n = room; n > 0; --n) {
    auto* s = static_cast<send_waiter<T>*>(tx_.waiting.pop_front());
    if (s == nullptr) break;
    push_locked(std::move(s->value_));
    s->grant();
    woken.push_back(*s);
    ++tail;
  }
  publish_tail(tail);
  return true;
}

template <class T>
bool channel_core<T>::send_or_announce_locked(send_waiter<T>& w, wake_list& woken) noexcept {
  if (tx_.closed.load(std::memory_order_relaxed)) return true;  // refused: false
  for (bool announced = false;; announced = true) {
    admit_locked(woken);
    const std::size_t tail = tx_.tail.load(std::memory_order_relaxed);
    if (tx_.waiting.empty() && room_locked(tail, /*fresh=*/true) > 0) {
      push_locked(std::move(w.value_));
      publish_tail(tail + 1);
      w.grant();
      // relaxed: nobody is queued (we hold the lock); a stale true only costs a look.
      if (announced) announce_.senders.store(false, std::memory_order_relaxed);
      return true;
    }
    if (announced) return false;  // queued, announced
    // seq_cst: before the re-check of the head in the next round (Dekker, with publish_head()
    // and the load of this flag after it).
    announce_.senders.store(true, std::memory_order_seq_cst);
  }
}

template <class T>
bool channel_core<T>::serve_senders(wake_list& woken) noexcept {
  const spin_lock::guard guard(tx_.lock);
  const bool admitted = admit_locked(woken);
  // relaxed: cleared under the lock every announcement is made under.
  if (tx_.waiting.empty()) announce_.senders.store(false, std::memory_order_relaxed);
  return admitted;
}

template <class T>
bool channel_core<T>::send_now(T& value) noexcept {
  if (capacity_ == 0) return false;
  {
    const spin_lock::guard guard(tx_.lock);
    const std::size_t tail = tx_.tail.load(std::memory_order_relaxed);  // ours, under the lock
    if (tx_.closed.load(std::memory_order_relaxed) || !tx_.waiting.empty() ||
        room_locked(tail, /*fresh=*/false) == 0) {
      return false;
    }
    push_locked(std::move(value));
    publish_tail(tail + 1);
  }
  // seq_cst: after publish_tail()'s store (Dekker: channel_core.hpp).
  if (announce_.receivers.load(std::memory_order_seq_cst)) settle_now();
  return true;
}

// ---- the receiver side ----

template <class T>
std::size_t channel_core<T>::available_locked(std::size_t head, bool fresh) noexcept {
  if (fresh || rx_.tail_seen == head) {
    // seq_cst: pairs with publish_tail()'s store (acquire: the cells it filled), and, after an
    // announcement, is its Dekker re-check.
    rx_.tail_seen = tx_.tail.load(std::memory_order_seq_cst);
  }
  return rx_.tail_seen - head;
}

template <class T>
void channel_core<T>::pop_locked(std::optional<T>& out) noexcept {
  cells_.move_out(rx_.head_pos, out);
  if (++rx_.head_pos == capacity_) rx_.head_pos = 0;
}

template <class T>
void channel_core<T>::publish_head(std::size_t head) noexcept {
  // seq_cst: release for the cells emptied before it (pairs with room_locked()'s load); ordered
  // before the load of announce_.senders that follows it (Dekker, with
  // send_or_announce_locked()'s store of it and load of head).
  rx_.head.store(head, std::memory_order_seq_cst);
}

// Buffered values to queued receivers, oldest to oldest; true when it handed out any.
template <class T>
bool channel_core<T>::hand_out_locked(wake_list& woken) noexcept {
  if (rx_.waiting.empty()) return false;
  std::size_t head = rx_.head.load(std::memory_order_relaxed);  // only stored under our lock
  const std::size_t first = head;
  for (std::size_t n = available_locked(head, /*fresh=*/true); n > 0; --n) {
    auto* r = static_cast<receive_waiter<T>*>(rx_.waiting.pop_front());
    if (r == nullptr) break;
    pop_locked(r->slot_);
    r->grant();
    woken.push_back(*r);
    ++head;
  }
  if (head == first) return false;
  publish_head(head);
  return true;
}

// The oldest value into `out` when no receiver is queued; false otherwise.
template <class T>
bool channel_core<T>::take_locked(std::optional<T>& out) noexcept {
  const std::size_t head = rx_.head.load(std::memory_order_relaxed);  // ours, under the lock
  if (!rx_.waiting.empty() || available_locked(head, /*fresh=*/false) == 0) return false;
  pop_locked(out);
  publish_head(head + 1);
  return true;
}

template <class T>
bool channel_core<T>::receive_or_announce_locked(receive_waiter<T>& w, wake_list& woken) noexcept {
  for (bool announced = false;; announced = true) {
    // seq_cst (acquire would do): closed before the tail, so a close seen means every value
    // accepted before it is seen (close() stores it under the sender lock, after the pushes).
    const bool closed = tx_.closed.load(std::memory_order_seq_cst);
    hand_out_locked(woken);
    const std::size_t head = rx_.head.load(std::memory_order_relaxed);
    if (rx_.waiting.empty() && available_locked(head, /*fresh=*/true) > 0) {
      pop_locked(w.slot_);
      publish_head(head + 1);
      w.grant();
      // relaxed: nobody is queued (we hold the lock); a stale true only costs a look.
      if (announced) announce_.receivers.store(false, std::memory_order_relaxed);
      return true;
    }
    if (closed) return true;      // closed and drained: nullopt (close() refuses the queued ones)
    if (announced) return false;  // queued, announced
    // seq_cst: before the re-check of the tail in the next round (Dekker, with publish_tail()
    // and the load of this flag after it).
    announce_.receivers.store(true, std::memory_order_seq_cst);
  }
}

template <class T>
bool channel_core<T>::serve_receivers(wake_list& woken) noexcept {
  const spin_lock::guard guard(rx_.lock);
  const bool served = hand_out_locked(woken);
  // relaxed: cleared under the lock every announcement is made under.
  if (rx_.waiting.empty()) announce_.receivers.store(false, std::memory_order_relaxed);
  return served;
}

template <class T>
bool channel_core<T>::receive_now(std::optional<T>& out) noexcept {
  if (capacity_ == 0) return false;
  std::size_t left = 0;  // at least this many values are still buffered
  {
    const spin_lock::guard guard(rx_.lock);
    if (!take_locked(out)) return false;
    left = rx_.tail_seen - rx_.head.load(std::memory_order_relaxed);  // ours, under the lock
  }
  // seq_cst: after publish_head()'s store (Dekker: channel_core.hpp). More than half full
  // (counting only what we have seen): queued senders wait for a later receive (admit_locked()).
  if (announce_.senders.load(std::memory_order_seq_cst) && 2 * left <= capacity_) settle_now();
  return true;
}

// ---- both sides ----

template <class T>
void channel_core<T>::settle(wake_list& woken) noexcept {
  for (bool moved = true; moved;) {
    moved = false;
    // seq_cst: each after this thread's last store of a count (Dekker: channel_core.hpp).
    if (announce_.receivers.load(std::memory_order_seq_cst)) moved = serve_receivers(woken);
    if (announce_.senders.load(std::memory_order_seq_cst)) moved = serve_senders(woken) || moved;
  }
}

template <class T>
void channel_core<T>::settle_now() noexcept {
  wake_list woken;
  settle(woken);
  if (!woken.empty()) woken.wake_all();
}

template <class T>
bool channel_core<T>::try_send(T& value) noexcept {
  if (capacity_ > 0) return send_now(value);
  wake_list woken;
  bool sent = false;
  {
    const spin_lock::guard guard(tx_.lock);
    sent = !tx_.closed.load(std::memory_order_relaxed) && hand_to_receiver_locked(value, woken);
  }
  woken.wake_all();
  return sent;
}

template <class T>
std::optional<T> channel_core<T>::try_receive() noexcept {
  std::optional<T> out;
  wake_list woken;
  if (capacity_ == 0) {
    const spin_lock::guard guard(tx_.lock);
    take_from_sender_locked(out, woken);
  } else {
    {
      const spin_lock::guard guard(rx_.lock);
      hand_out_locked(woken);  // queued receivers first: they came before us
      take_locked(out);
    }
    settle(woken);
  }
  woken.wake_all();
  return out;
}

template <class T>
void channel_core<T>::close() noexcept {
  wake_list woken;
  {
    const spin_lock::guard guard(tx_.lock);
    tx_.closed.store(true, std::memory_order_seq_cst);  // pairs with the receivers' loads
    while (waiter* w = tx_.waiting.pop_front()) woken.push_back(*w);
    while (waiter* w = tx_.rendezvous_receivers.pop_front()) woken.push_back(*w);
    announce_.senders.store(false, std::memory_order_relaxed);  // see serve_senders()
  }
  if (capacity_ > 0) {
    const spin_lock::guard guard(rx_.lock);
    hand_out_locked(woken);  // what is buffered still goes to the queued receivers...
    while (waiter* w = rx_.waiting.pop_front()) woken.push_back(*w);  // ...the rest: nullopt
    announce_.receivers.store(false, std::memory_order_relaxed);      // see serve_receivers()
  }
  woken.wake_all();
}

// ---- capacity 0: one lock (the sender side's), a value goes from a waiter to a waiter ----

template <class T>
bool channel_core<T>::hand_to_receiver_locked(T& value, wake_list& woken) noexcept {
  auto* r = static_cast<receive_waiter<T>*>(tx_.rendezvous_receivers.pop_front());
  if (r == nullptr) return false;
  r->slot_.emplace(std::move(value));
  r->grant();
  woken.push_back(*r);
  return true;
}

template <class T>
bool channel_core<T>::take_from_sender_locked(std::optional<T>& out, wake_list& woken) noexcept {
  auto* s = static_cast<send_waiter<T>*>(tx_.waiting.pop_front());
  if (s == nullptr) return false;
  out.emplace(std::move(s->value_));
  s->grant();
  woken.push_back(*s);
  return true;
}

// ---- the wait queue's callbacks (run under the site's lock, or, settle, outside it) ----

template <class T>
bool channel_core<T>::attempt_send(void* self, waiter& w, wake_list& woken) noexcept {
  auto& core = *static_cast<channel_core*>(self);
  core.tx_.lock.assert_held();  // the wait queue holds it (*wait_site::lock)
  return core.send_or_announce_locked(static_cast<send_waiter<T>&>(w), woken);
}

template <class T>
bool channel_core<T>::attempt_receive(void* self, waiter& w, wake_list& woken) noexcept {
  auto& core = *static_cast<channel_core*>(self);
  core.rx_.lock.assert_held();  // the wait queue holds it (*wait_site::lock)
  return core.receive_or_announce_locked(static_cast<receive_waiter<T>&>(w), woken);
}

template <class T>
bool channel_core<T>::attempt_send_rendezvous(void* self, waiter& w, wake_list& woken) noexcept {
  auto& core = *static_cast<channel_core*>(self);
  core.tx_.lock.assert_held();  // the wait queue holds it (*wait_site::lock)
  if (core.tx_.closed.load(std::memory_order_relaxed)) return true;  // refused: false
  if (!core.hand_to_receiver_locked(static_cast<send_waiter<T>&>(w).value_, woken)) return false;
  w.grant();
  return true;
}

template <class T>
bool channel_core<T>::attempt_receive_rendezvous(void* self, waiter& w, wake_list& woken) noexcept {
  auto& core = *static_cast<channel_core*>(self);
  core.tx_.lock.assert_held();  // the wait queue holds it (*wait_site::lock)
  if (core.take_from_sender_locked(static_cast<receive_waiter<T>&>(w).slot_, woken)) {
    w.grant();
    return true;
  }
  return core.tx_.closed.load(std::memory_order_relaxed);  // closed: done, nullopt
}

template <class T>
void channel_core<T>::settle_site(void* self, wake_list& woken) noexcept {
  static_cast<channel_core*>(self)->settle(woken);
}

}  // namespace shoal::detail
