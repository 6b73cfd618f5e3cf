// SPDX-License-Identifier: Apache-2.0
// Fast random strings; see strings.hpp.
#include "random/strings.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tpcc::random {

namespace {

// Chunk-to-character tables: an a-string takes 6-bit chunks and keeps the 62 below 62, an
// n-string 7-bit chunks and keeps the 120 below 120 (12 of each digit); the table lookup
// replaces a division per character.
struct chunk_table {
  unsigned bits;
  std::uint64_t limit;
  std::array<char, 128> chars;
};

constexpr chunk_table make_alphanumeric() {
  constexpr std::string_view alphabet =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  chunk_table t{6, alphabet.size(), {}};
  for (std::size_t i = 0; i < alphabet.size(); ++i) t.chars[i] = alphabet[i];
  return t;
}

constexpr chunk_table make_digits() {
  chunk_table t{7, 120, {}};
  for (std::size_t i = 0; i < t.limit; ++i) t.chars[i] = static_cast<char>('0' + (i % 10));
  return t;
}

constexpr chunk_table alphanumeric = make_alphanumeric();
constexpr chunk_table digits = make_digits();

// Fills out[0, size): each 64-bit draw is cut into `bits`-wide chunks; a chunk below `limit`
// becomes a character, a chunk at or above it is dropped, so every character is exactly
// uniform over its alphabet.
void fill(rng& r, const chunk_table& table, char* out, std::size_t size) {
  const std::uint64_t mask = (std::uint64_t{1} << table.bits) - 1;
  const unsigned chunks = 64 / table.bits;
  std::size_t i = 0;
  while (i < size) {
    std::uint64_t word = r.next();
    for (unsigned c = 0; c < chunks && i < size; ++c, word >>= table.bits) {
      const std::uint64_t chunk = word & mask;
      if (chunk < table.limit) out[i++] = table.chars[chunk];
    }
  }
}

std::size_t draw_length(rng& r, int min_len, int max_len) {
  return static_cast<std::size_t>(r.uniform(min_len, max_len));
}

constexpr std::array<std::string_view, 10> syllables{"BAR", "OUGHT", "ABLE",  "PRI",   "PRES",
                                                     "ESE", "ANTI",  "CALLY", "ATION", "EING"};

constexpr std::string_view original = "ORIGINAL";

}  // namespace

void a_string(rng& r, int min_len, int max_len, std::string& out) {
  out.resize(draw_length(r, min_len, max_len));
  // About 9.7 characters per 64-bit draw.
  fill(r, alphanumeric, out.data(), out.size());
}

std::string a_string(rng& r, int min_len, int max_len) {
  std::string out;
  a_string(r, min_len, max_len, out);
  return out;
}

void n_string(rng& r, int min_len, int max_len, std::string& out) {
  out.resize(draw_length(r, min_len, max_len));
  // About 8.4 digits per 64-bit draw.
  fill(r, digits, out.data(), out.size());
}

std::string n_string(rng& r, int min_len, int max_len) {
  std::string out;
  n_string(r, min_len, max_len, out);
  return out;
}

void last_name(std::int64_t number, std::string& out) {
  const auto n = static_cast<std::size_t>(((number % 1000) + 1000) % 1000);
  out.clear();
  out.append(syllables[n / 100]);
  out.append(syllables[(n / 10) % 10]);
  out.append(syllables[n % 10]);
}

std::string last_name(std::int64_t number) {
  std::string out;
  last_name(number, out);
  return out;
}

void zip_code(rng& r, std::string& out) {
  out.assign("????11111");
  fill(r, digits, out.data(), 4);
}

std::string zip_code(rng& r) {
  std::string out;
  zip_code(r, out);
  return out;
}

void data_with_original(rng& r, int min_len, int max_len, std::string& out) {
  a_string(r, min_len, max_len, out);
  if (r.uniform(1, 10) != 1) return;
  const auto last_start = static_cast<std::int64_t>(out.size() - original.size());
  const auto at = static_cast<std::size_t>(r.uniform(0, last_start));
  out.replace(at, original.size(), original);
}

std::string data_with_original(rng& r, int min_len, int max_len) {
  std::string out;
  data_with_original(r, min_len, max_len, out);
  return out;
}

}  // namespace tpcc::random
