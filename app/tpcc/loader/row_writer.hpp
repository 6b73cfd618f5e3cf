// SPDX-License-Identifier: Apache-2.0
// app/tpcc/loader/row_writer.hpp: writes generated values into a bulk_rows, reusing its storage.
//
// What: the population (population.hpp) fills millions of values. Rather than clearing the
// vector of values and building new strings for every chunk, a row_writer overwrites the slots
// in place: a slot that already holds a std::string keeps its capacity, so after the first
// chunk of a table, generating a text value allocates nothing. `finish` trims the vector to
// what was written.
// Lifetime: borrows the vector for its own lifetime. Thread-safety: none (one generator).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "driver/value.hpp"

namespace tpcc::loader {

class row_writer {
 public:
  explicit row_writer(std::vector<driver::value>& values) noexcept : values_(values) {}

  void integer(std::int64_t v) { slot() = v; }
  void number(double v) { slot() = v; }
  void null() { slot() = std::monostate{}; }
  void text(std::string_view v) { text_slot().assign(v); }
  // A string slot to fill in place (its previous content is to be overwritten).
  std::string& text_slot() {
    driver::value& v = slot();
    if (auto* s = std::get_if<std::string>(&v)) return *s;
    return v.emplace<std::string>();
  }

  // Values written so far.
  [[nodiscard]] std::size_t written() const noexcept { return next_; }
  // Drops the slots past what was written (left from a larger earlier chunk).
  void finish() { values_.resize(next_); }

 private:
  driver::value& slot() {
    if (next_ == values_.size()) values_.emplace_back();
    return values_[next_++];
  }

  std::vector<driver::value>& values_;
  std::size_t next_ = 0;
};

}  // namespace tpcc::loader
