// SPDX-License-Identifier: Apache-2.0
// app/tpcc/metrics/exposition.cpp: the text exposition format (see exposition.hpp).
#include "metrics/exposition.hpp"

#include <array>
#include <charconv>
#include <cmath>

namespace tpcc::metrics {
namespace {

const char* type_name(metric_type t) {
  switch (t) {
    case metric_type::counter:
      return "counter";
    case metric_type::gauge:
      return "gauge";
    case metric_type::histogram:
      return "histogram";
  }
  return "untyped";
}

std::string escape(std::string_view text, bool quotes) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (c == '\\') {
      out.append("\\\\");
    } else if (c == '\n') {
      out.append("\\n");
    } else if (c == '"' && quotes) {
      out.append("\\\"");
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace

std::string escape_label_value(std::string_view value) { return escape(value, true); }

std::string escape_help(std::string_view help) { return escape(help, false); }

std::string format_value(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  // Plain decimals where they stay short (le="0.0002", not "2e-04"), exponents beyond.
  const double magnitude = std::fabs(value);
  const bool plain = magnitude == 0 || (magnitude >= 1e-6 && magnitude < 1e21);
  std::array<char, 128> buffer{};
  const auto [end, error] =
      plain ? std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                            std::chars_format::fixed)
            : std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  if (error != std::errc()) return "NaN";  // cannot happen: 128 characters hold these
  return {buffer.data(), end};
}

void exposition::family(std::string_view name, metric_type type, std::string_view help) {
  text_.append("# HELP ").append(name).append(" ").append(escape_help(help)).append("\n");
  text_.append("# TYPE ").append(name).append(" ").append(type_name(type)).append("\n");
}

void exposition::sample(std::string_view name, std::initializer_list<label> labels, double value) {
  text_.append(name);
  if (labels.size() > 0) {
    char separator = '{';
    for (const auto& [key, text] : labels) {
      text_.push_back(separator);
      text_.append(key).append("=\"").append(escape_label_value(text)).append("\"");
      separator = ',';
    }
    text_.push_back('}');
  }
  text_.append(" ").append(format_value(value)).append("\n");
}

}  // namespace tpcc::metrics
