// SPDX-License-Identifier: Apache-2.0
// app/tpcc/metrics/exposition.hpp: writing Prometheus's text exposition format (version 0.0.4).
//
// What: an `exposition` accumulates metric families into one text: family() writes a family's
// `# HELP` and `# TYPE` lines, sample() one sample line `name{label="value",...} value`.
// Label values are escaped as the format requires (backslash, double quote and line feed);
// HELP text too (backslash and line feed). Values are written in the shortest form that reads
// back exactly ("+Inf", "-Inf" and "NaN" for the special values). Names are the caller's: they
// must match [a-zA-Z_:][a-zA-Z0-9_:]* (label names [a-zA-Z_][a-zA-Z0-9_]*); a family's samples
// must follow its family() call, each family written once (the format's own rules).
// Lifetime: a plain value; text() gives what was written so far.
// Thread-safety: one owner.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace tpcc::metrics {

// One label: name and (unescaped) value.
using label = std::pair<std::string_view, std::string_view>;

enum class metric_type : unsigned char { counter, gauge, histogram };

class exposition {
 public:
  void family(std::string_view name, metric_type type, std::string_view help);
  void sample(std::string_view name, std::initializer_list<label> labels, double value);
  void sample(std::string_view name, double value) { sample(name, {}, value); }

  [[nodiscard]] const std::string& text() const noexcept { return text_; }

 private:
  std::string text_;
};

// A label value or HELP text as the format writes it (escape_help: no double quotes escaped).
[[nodiscard]] std::string escape_label_value(std::string_view value);
[[nodiscard]] std::string escape_help(std::string_view help);
// A sample value, the shortest text that reads back exactly: "0", "12", "0.0002", "1e+21",
// "+Inf", "NaN" (plain decimals from 1e-6 to 1e21, exponents beyond).
[[nodiscard]] std::string format_value(double value);

}  // namespace tpcc::metrics
