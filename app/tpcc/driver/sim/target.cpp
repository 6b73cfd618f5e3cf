// SPDX-License-Identifier: Apache-2.0
// Reading a sim: target (sim.hpp).
#include <charconv>
#include <string>
#include <string_view>

#include "driver/sim/sim.hpp"

namespace tpcc::driver::sim {
namespace {

using std::chrono::nanoseconds;

struct unit {
  std::string_view suffix;
  std::int64_t nanos;
};

constexpr unit units[] = {{"us", 1'000}, {"ms", 1'000'000}, {"s", 1'000'000'000}};
constexpr std::int64_t max_latency_ns = std::int64_t{60} * 1'000'000'000;

// "5ms" -> 5 ms; false when malformed or above a minute.
bool read_latency(std::string_view text, nanoseconds& out) {
  for (const unit& u : units) {
    if (!text.ends_with(u.suffix)) continue;
    const std::string digits(text.substr(0, text.size() - u.suffix.size()));
    std::int64_t n = 0;
    const char* end = digits.c_str() + digits.size();
    const auto [ptr, ec] = std::from_chars(digits.c_str(), end, n);
    if (digits.empty() || ec != std::errc() || ptr != end || n < 0) return false;
    if (n > max_latency_ns / u.nanos) return false;
    out = nanoseconds(n * u.nanos);
    return true;
  }
  return false;
}

// capacity=N: transactions per second, 1 to 10^9; empty when fine, else what was wrong.
std::string read_capacity(std::string_view text, std::int64_t& out) {
  std::int64_t n = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || n < 1 ||
      n > 1'000'000'000) {
    std::string wrong = "capacity expects transactions per second, an integer from 1 to ";
    wrong.append("1000000000, not '").append(text);
    return wrong.append("'");
  }
  out = n;
  return {};
}

// "new_order:20ms" into s.slow; empty when fine, else what was wrong.
std::string apply_slow(std::string_view value, settings& s) {
  const auto colon = value.find(':');
  const std::string_view type = value.substr(0, colon);
  std::size_t k = 0;
  while (k < slowed_types.size() && slowed_types[k].name != type) ++k;
  nanoseconds extra{};
  if (colon == std::string_view::npos || k == slowed_types.size() ||
      !read_latency(value.substr(colon + 1), extra)) {
    std::string out =
        "slow expects TYPE:DURATION with TYPE new_order, payment, order_status, delivery or "
        "stock_level and DURATION such as 20ms (at most 60s), not '";
    out.append(value);
    return out.append("'");
  }
  s.slow[k] = extra;
  return {};
}

// Applies one "key=value" setting; empty when fine, else what was wrong.
std::string apply(std::string_view setting, settings& s, bool& has_latency) {
  const auto eq = setting.find('=');
  const std::string_view key = setting.substr(0, eq);
  if (eq == std::string_view::npos) {
    std::string out = "expected key=value, not '";
    out.append(setting);
    return out.append("'");
  }
  const std::string_view value = setting.substr(eq + 1);
  if (key == "capacity") return read_capacity(value, s.capacity);
  if (key == "slow") return apply_slow(value, s);
  if (key != "latency") {
    std::string out = "unknown setting '";
    out.append(key);
    return out.append("' (known: latency, slow, capacity)");
  }
  if (!read_latency(value, s.latency)) {
    std::string out = "latency expects a duration such as 5ms, 500us or 1s (at most 60s), not '";
    out.append(value);
    return out.append("'");
  }
  has_latency = true;
  return {};
}

}  // namespace

bool accepts(std::string_view target) noexcept { return target.starts_with(prefix); }

std::variant<settings, std::string> parse_target(std::string_view target) {
  if (!accepts(target)) return std::string("a simulated database target starts with sim:");
  std::string_view rest = target.substr(prefix.size());
  settings s;
  bool has_latency = false;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view setting = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    std::string wrong = apply(setting, s, has_latency);
    if (!wrong.empty()) return wrong;
  }
  if (!has_latency) {
    return std::string("the simulated database needs latency=DURATION, e.g. sim:latency=5ms");
  }
  return s;
}

std::size_t slowed_index(std::string_view name) noexcept {
  std::size_t k = 0;
  while (k < slowed_types.size() && !name.starts_with(slowed_types[k].prefix)) ++k;
  return k;
}

namespace {

// "5ms", or "250us" when not whole milliseconds.
std::string duration_text(nanoseconds d) {
  const std::int64_t ns = d.count();
  if (ns % 1'000'000 == 0) return std::to_string(ns / 1'000'000) + "ms";
  return std::to_string(ns / 1'000) + "us";
}

}  // namespace

std::string canonical(const settings& s) {
  std::string out(prefix);
  out += "latency=" + duration_text(s.latency);
  for (std::size_t k = 0; k < slowed_types.size(); ++k) {
    if (s.slow[k].count() == 0) continue;
    out.append(",slow=").append(slowed_types[k].name).append(":").append(duration_text(s.slow[k]));
  }
  if (s.capacity > 0) out.append(",capacity=").append(std::to_string(s.capacity));
  return out;
}

}  // namespace tpcc::driver::sim
