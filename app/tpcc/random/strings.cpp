// Fast random strings; see strings.hpp.
#include "random/strings.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tpcc::random {

namespace {

constexpr std::string_view alphanumeric =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
constexpr std::string_view digits = "0123456789";

// Fills out[0, size) from an alphabet of `alphabet.size()` characters: each 64-bit draw is cut
// into `bits`-wide chunks; a chunk below `limit` (a multiple of the alphabet size) picks
// alphabet[chunk % size], a chunk at or above it is dropped, so every character is uniform.
void fill(rng& r, std::string_view alphabet, unsigned bits, std::uint64_t limit, char* out,
          std::size_t size) {
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  const unsigned chunks = 64 / bits;
  std::size_t i = 0;
  while (i < size) {
    std::uint64_t word = r.next();
    for (unsigned c = 0; c < chunks && i < size; ++c, word >>= bits) {
      const std::uint64_t chunk = word & mask;
      if (chunk < limit) out[i++] = alphabet[chunk % alphabet.size()];
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
  // 6-bit chunks, 62 of 64 kept: about 10 characters per draw.
  fill(r, alphanumeric, 6, 62, out.data(), out.size());
}

std::string a_string(rng& r, int min_len, int max_len) {
  std::string out;
  a_string(r, min_len, max_len, out);
  return out;
}

void n_string(rng& r, int min_len, int max_len, std::string& out) {
  out.resize(draw_length(r, min_len, max_len));
  // 7-bit chunks, 120 of 128 kept: about 8.4 digits per draw.
  fill(r, digits, 7, 120, out.data(), out.size());
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
  out.resize(9);
  fill(r, digits, 7, 120, out.data(), 4);
  out.replace(4, 5, "11111");
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
