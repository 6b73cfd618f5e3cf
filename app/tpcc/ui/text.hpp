// SPDX-License-Identifier: Apache-2.0
// app/tpcc/ui/text.hpp: the small text tools the screens are laid out with.
//
// What: numbers with a fixed number of digits, durations as m:ss, rates with k/M suffixes,
// a progress bar, and fit() which cuts or pads a line to an exact width. Every screen is ASCII
// only, so a line's length in bytes is its width in terminal columns.
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tpcc::ui {

struct screen_size {
  std::size_t columns = 80, rows = 24;
};

// `v` with `digits` decimals ("12.5").
[[nodiscard]] std::string fixed(double v, int digits);
// Whole seconds as "m:ss" (or "h:mm:ss" from one hour); negative values count as 0.
[[nodiscard]] std::string clock_time(double seconds);
// A count or rate, short: 950, 12.3k, 4.5M.
[[nodiscard]] std::string short_number(double v);
// Microseconds as milliseconds with one decimal ("1.2").
[[nodiscard]] std::string millis(std::uint64_t micros);
// "[#####.....]" exactly `width` characters wide (at least 2); `fraction` is clamped to 0..1.
[[nodiscard]] std::string progress_bar(double fraction, std::size_t width);
// `line` cut to `width` characters (a cut line ends with '~'), never padded.
[[nodiscard]] std::string fit(const std::string& line, std::size_t width);
// `line` with every byte that is not printable ASCII (escape sequences, UTF-8, tabs) as '?'
// or a space, so that a captured line cannot move the cursor or change colours.
[[nodiscard]] std::string printable(const std::string& line);
// `text` padded with spaces on the left (right-aligned) or right to `width`.
[[nodiscard]] std::string pad_left(const std::string& text, std::size_t width);
[[nodiscard]] std::string pad_right(const std::string& text, std::size_t width);

}  // namespace tpcc::ui
