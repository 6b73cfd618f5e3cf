// SPDX-License-Identifier: Apache-2.0
// app/tpcc/random/strings.hpp: the random strings of TPC-C population and input
// (clauses 4.3.2.2, 4.3.2.3, 4.3.2.7, 4.3.3.1).
//
// What: a-strings (alphanumeric: a-z, A-Z, 0-9) and n-strings (digits) of a length uniform in
// [min_len, max_len], customer last names from three syllables, zip codes, and I_DATA / S_DATA
// where 10% of the values hold "ORIGINAL" at a random position. The loader calls these some
// 10^7 times, so each fills a std::string in place, several characters per 64-bit draw, with no
// streams; the `std::string& out` overloads reuse out's capacity (out is overwritten).
// Every character is exactly uniform over its alphabet (chunk rejection, no modulo bias).
// Lifetime: plain functions. Thread-safety: as thread-safe as the rng passed in.
#pragma once

#include <cstdint>
#include <string>

#include "random/rng.hpp"

namespace tpcc::random {

// Random a-string [min_len .. max_len] (clause 4.3.2.2). Requires 0 <= min_len <= max_len.
[[nodiscard]] std::string a_string(rng& r, int min_len, int max_len);
void a_string(rng& r, int min_len, int max_len, std::string& out);

// Random n-string [min_len .. max_len]: decimal digits only (clause 4.3.2.2).
[[nodiscard]] std::string n_string(rng& r, int min_len, int max_len);
void n_string(rng& r, int min_len, int max_len, std::string& out);

// C_LAST for a number in 0..999: the syllables of its three decimal digits (clause 4.3.2.3),
// e.g. 371 -> "PRI" "CALLY" "OUGHT". Numbers outside 0..999 are reduced modulo 1000.
[[nodiscard]] std::string last_name(std::int64_t number);
void last_name(std::int64_t number, std::string& out);

// A zip code: a random n-string of 4 digits followed by "11111" (clause 4.3.2.7).
[[nodiscard]] std::string zip_code(rng& r);
void zip_code(rng& r, std::string& out);

// I_DATA / S_DATA (clause 4.3.3.1): a random a-string [min_len .. max_len]; for 10% of the
// values, chosen at random, "ORIGINAL" overwrites 8 characters at a random position.
// Requires 8 <= min_len <= max_len.
[[nodiscard]] std::string data_with_original(rng& r, int min_len, int max_len);
void data_with_original(rng& r, int min_len, int max_len, std::string& out);

}  // namespace tpcc::random
