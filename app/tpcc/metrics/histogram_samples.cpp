// SPDX-License-Identifier: Apache-2.0
// app/tpcc/metrics/histogram_samples.cpp: a histogram's series (see histogram_samples.hpp).
#include "metrics/histogram_samples.hpp"

#include <cstdint>
#include <string>

#include "metrics/render.hpp"

namespace tpcc::metrics {

void histogram_samples(exposition& e, std::string_view name, label series,
                       const stats::histogram& h) {
  const std::string bucket = std::string(name) + "_bucket";
  for (const double bound : response_bounds) {
    const auto us = static_cast<std::uint64_t>(bound * 1e6);
    e.sample(bucket, {series, {"le", format_value(bound)}},
             static_cast<double>(h.count_at_or_below(us)));
  }
  const auto count = static_cast<double>(h.count());
  e.sample(bucket, {series, {"le", "+Inf"}}, count);
  e.sample(std::string(name) + "_sum", {series}, h.sum_micros() / 1e6);
  e.sample(std::string(name) + "_count", {series}, count);
}

}  // namespace tpcc::metrics
