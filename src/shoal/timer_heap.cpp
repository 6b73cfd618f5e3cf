// The intrusive binary heap behind shoal/detail/timer_heap.hpp.
#include "shoal/detail/timer_heap.hpp"

namespace shoal::detail {

bool timer_heap::before(const timer_node* a, const timer_node* b) noexcept {
  if (a->deadline != b->deadline) return a->deadline < b->deadline;
  return a->sequence < b->sequence;
}

void timer_heap::place(std::size_t index, timer_node* node) noexcept {
  nodes_[index] = node;
  node->heap_index = index;
}

void timer_heap::sift_up(std::size_t index) noexcept {
  timer_node* node = nodes_[index];
  while (index > 0) {
    const std::size_t parent = (index - 1) / 2;
    if (!before(node, nodes_[parent])) break;
    place(index, nodes_[parent]);
    index = parent;
  }
  place(index, node);
}

void timer_heap::sift_down(std::size_t index) noexcept {
  timer_node* node = nodes_[index];
  const std::size_t n = nodes_.size();
  for (;;) {
    std::size_t child = 2 * index + 1;
    if (child >= n) break;
    if (child + 1 < n && before(nodes_[child + 1], nodes_[child])) ++child;
    if (!before(nodes_[child], node)) break;
    place(index, nodes_[child]);
    index = child;
  }
  place(index, node);
}

void timer_heap::push(timer_node& node) {
  node.sequence = next_sequence_++;
  nodes_.push_back(&node);
  node.heap_index = nodes_.size() - 1;
  sift_up(node.heap_index);
}

void timer_heap::remove_at(std::size_t index) noexcept {
  timer_node* removed = nodes_[index];
  timer_node* last = nodes_.back();
  nodes_.pop_back();
  removed->heap_index = timer_node::not_queued;
  if (index == nodes_.size()) return;
  place(index, last);
  if (index > 0 && before(last, nodes_[(index - 1) / 2])) {
    sift_up(index);
  } else {
    sift_down(index);
  }
}

bool timer_heap::erase(timer_node& node) noexcept {
  if (!node.queued() || node.heap_index >= nodes_.size() || nodes_[node.heap_index] != &node) {
    return false;
  }
  remove_at(node.heap_index);
  return true;
}

timer_node* timer_heap::pop_expired(time_point now) noexcept {
  if (nodes_.empty() || nodes_.front()->deadline > now) return nullptr;
  timer_node* node = nodes_.front();
  remove_at(0);
  return node;
}

std::optional<time_point> timer_heap::next_deadline() const noexcept {
  if (nodes_.empty()) return std::nullopt;
  return nodes_.front()->deadline;
}

}  // namespace shoal::detail
