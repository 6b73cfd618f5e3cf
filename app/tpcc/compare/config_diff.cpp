// SPDX-License-Identifier: Apache-2.0
// app/tpcc/compare/config_diff.cpp: configuration differences (see config_diff.hpp).
#include "compare/config_diff.hpp"

#include <chrono>
#include <functional>

#include "driver/target.hpp"
#include "report/summary.hpp"
#include "report/text.hpp"

namespace tpcc::compare {
namespace {

using report::format;

// One compared setting: its name, whether a difference is a likely cause, and how to show it.
struct setting {
  const char* name;
  bool likely_cause;
  std::function<std::string(const report::loaded_result&)> show;
};

const char* engine_name(driver::engine e) noexcept {
  switch (e) {
    case driver::engine::sqlite:
      return "SQLite";
    case driver::engine::postgres:
      return "PostgreSQL";
    case driver::engine::mysql:
      return "MySQL/MariaDB";
    case driver::engine::sim:
      return "simulated (sim:)";
    default:
      return "unknown";
  }
}

std::string seconds_text(std::chrono::nanoseconds d) {
  return format("%g s", std::chrono::duration<double>(d).count());
}

std::string number(long long n) { return format("%lld", n); }

const run::run_result& res(const report::loaded_result& l) { return l.result; }

// The settings, likely causes first (config_diff.hpp).
std::vector<setting> settings() {
  return {
      {"database", true,
       [](const auto& l) { return std::string(engine_name(driver::engine_of(l.context.target))); }},
      {"target", true, [](const auto& l) { return l.context.target; }},
      {"server version", true, [](const auto& l) { return res(l).origin.server_version; }},
      {"warehouses", true, [](const auto& l) { return number(res(l).warehouses); }},
      {"terminals per warehouse", true,
       [](const auto& l) { return number(res(l).config.terminals_per_warehouse); }},
      {"terminals", true, [](const auto& l) { return number(res(l).terminals); }},
      {"isolation", true,
       [](const auto& l) { return report::isolation_text(res(l), l.context.target); }},
      {"wait scale", true, [](const auto& l) { return format("%g", res(l).wait_scale); }},
      {"analytic streams", true, [](const auto& l) { return number(res(l).ch.streams); }},
      {"connections", true,
       [](const auto& l) { return number(static_cast<long long>(res(l).origin.connections)); }},
      {"workers", true,
       [](const auto& l) { return number(static_cast<long long>(res(l).origin.workers)); }},
      {"client host", true, [](const auto& l) { return res(l).origin.host; }},
      {"client cores", true, [](const auto& l) { return number(res(l).origin.cores); }},
      {"shoal-tpcc version", true, [](const auto& l) { return l.context.version; }},
      {"commit", true, [](const auto& l) { return res(l).origin.commit; }},
      {"measurement interval", false,
       [](const auto& l) { return seconds_text(res(l).config.measure); }},
      {"measured", false, [](const auto& l) { return format("%.1f s", res(l).measured_seconds); }},
      {"warm-up", false, [](const auto& l) { return seconds_text(res(l).config.warmup); }},
      {"seed", false,
       [](const auto& l) {
         return format("%llu", static_cast<unsigned long long>(res(l).config.seed));
       }},
      {"shard", false,
       [](const auto& l) {
         return number(res(l).config.shard.index) + "/" + number(res(l).config.shard.count);
       }},
      {"deliverers", false,
       [](const auto& l) { return number(static_cast<long long>(res(l).config.deliverers)); }},
      {"retry attempts", false,
       [](const auto& l) { return number(res(l).config.retry.max_attempts); }},
  };
}

}  // namespace

std::vector<config_difference> config_differences(const report::loaded_result& a,
                                                  const report::loaded_result& b) {
  std::vector<config_difference> out;
  for (const setting& s : settings()) {
    std::string in_a = s.show(a), in_b = s.show(b);
    if (in_a == in_b) continue;
    out.push_back({s.name, std::move(in_a), std::move(in_b), s.likely_cause});
  }
  return out;
}

}  // namespace tpcc::compare
