// How far a load has got (progress.hpp).
#include "loader/progress.hpp"

#include <algorithm>

namespace tpcc::loader {

namespace {
constexpr double mib = 1024.0 * 1024.0;
}  // namespace

// Relaxed stores throughout: each counter stands alone (header). A snapshot taken during start
// may mix old and new counters for one poll.
void load_progress::start(std::int64_t rows_expected, std::int64_t warehouses_total,
                          std::int64_t warehouses_done, bool items_done, clock::time_point now) {
  rows_.store(0, std::memory_order_relaxed);
  bytes_.store(0, std::memory_order_relaxed);
  rows_expected_.store(rows_expected, std::memory_order_relaxed);
  warehouses_total_.store(warehouses_total, std::memory_order_relaxed);
  warehouses_done_.store(warehouses_done, std::memory_order_relaxed);
  items_done_.store(items_done, std::memory_order_relaxed);
  // A zero tick count means "not started": nudge a (theoretical) epoch start past it.
  started_.store(std::max<clock::rep>(now.time_since_epoch().count(), 1),
                 std::memory_order_relaxed);
}

void load_progress::add(std::int64_t rows, std::int64_t bytes) noexcept {
  rows_.fetch_add(rows, std::memory_order_relaxed);
  bytes_.fetch_add(bytes, std::memory_order_relaxed);
}

void load_progress::warehouse_done() noexcept {
  warehouses_done_.fetch_add(1, std::memory_order_relaxed);
}

void load_progress::items_done() noexcept { items_done_.store(true, std::memory_order_relaxed); }

progress_snapshot load_progress::snapshot(clock::time_point now) const {
  progress_snapshot s;
  s.rows = rows_.load(std::memory_order_relaxed);
  s.rows_expected = rows_expected_.load(std::memory_order_relaxed);
  s.bytes = bytes_.load(std::memory_order_relaxed);
  s.warehouses_done = warehouses_done_.load(std::memory_order_relaxed);
  s.warehouses_total = warehouses_total_.load(std::memory_order_relaxed);
  s.items_done = items_done_.load(std::memory_order_relaxed);
  const clock::rep started = started_.load(std::memory_order_relaxed);
  if (started == 0) return s;
  const clock::duration elapsed = now - clock::time_point(clock::duration(started));
  s.elapsed_seconds = std::max(0.0, std::chrono::duration<double>(elapsed).count());
  if (s.elapsed_seconds <= 0 || s.rows == 0) return s;
  s.rows_per_second = static_cast<double>(s.rows) / s.elapsed_seconds;
  s.mib_per_second = static_cast<double>(s.bytes) / mib / s.elapsed_seconds;
  const auto left = static_cast<double>(std::max<std::int64_t>(s.rows_expected - s.rows, 0));
  s.eta_seconds = left / s.rows_per_second;
  return s;
}

}  // namespace tpcc::loader
