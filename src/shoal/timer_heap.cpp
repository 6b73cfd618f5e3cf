// SPDX-License-Identifier: Apache-2.0
// The intrusive 4-ary heap behind shoal/detail/timer_heap.hpp.
#include "shoal/detail/timer_heap.hpp"

namespace shoal::detail {

bool timer_heap::before(const entry& a, const entry& b) noexcept {
  if (a.deadline != b.deadline) return a.deadline < b.deadline;
  return a.sequence < b.sequence;
}

void timer_heap::place(std::size_t index, const entry& e) noexcept {
  nodes_[index] = e;
  e.node->heap_index = index;
}

void timer_heap::sift_up(std::size_t index) noexcept {
  const entry e = nodes_[index];
  while (index > 0) {
    const std::size_t parent = (index - 1) / arity;
    if (!before(e, nodes_[parent])) break;
    place(index, nodes_[parent]);
    index = parent;
  }
  place(index, e);
}

void timer_heap::sift_down(std::size_t index) noexcept {
  const entry e = nodes_[index];
  const std::size_t n = nodes_.size();
  for (;;) {
    const std::size_t first = arity * index + 1;
    if (first >= n) break;
    std::size_t best = first;
    const std::size_t last = first + arity < n ? first + arity : n;
    for (std::size_t child = first + 1; child < last; ++child) {
      if (before(nodes_[child], nodes_[best])) best = child;
    }
    if (!before(nodes_[best], e)) break;
    place(index, nodes_[best]);
    index = best;
  }
  place(index, e);
}

void timer_heap::push(timer_node& node) {
  node.sequence = next_sequence_++;
  nodes_.push_back({node.deadline, node.sequence, &node});
  node.heap_index = nodes_.size() - 1;
  sift_up(node.heap_index);
}

void timer_heap::remove_at(std::size_t index) noexcept {
  timer_node* removed = nodes_[index].node;
  const entry last = nodes_.back();
  nodes_.pop_back();
  removed->heap_index = timer_node::not_queued;
  if (index == nodes_.size()) return;
  place(index, last);
  if (index > 0 && before(last, nodes_[(index - 1) / arity])) {
    sift_up(index);
  } else {
    sift_down(index);
  }
}

bool timer_heap::erase(timer_node& node) noexcept {
  if (!node.queued() || node.heap_index >= nodes_.size() || nodes_[node.heap_index].node != &node) {
    return false;
  }
  remove_at(node.heap_index);
  return true;
}

timer_node* timer_heap::pop_expired(time_point now) noexcept {
  if (nodes_.empty() || nodes_.front().deadline > now) return nullptr;
  timer_node* node = nodes_.front().node;
  remove_at(0);
  return node;
}

std::optional<time_point> timer_heap::next_deadline() const noexcept {
  if (nodes_.empty()) return std::nullopt;
  return nodes_.front().deadline;
}

}  // namespace shoal::detail
