// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/hdr_encode.hpp: one of our interval histograms as an HdrHistogram, in
// HdrHistogram's compressed V2 encoding (what its interval logs carry, Base64-encoded).
//
// What: the mapping and the encoding, nothing about files. The HdrHistogram has a fixed shape:
// values in microseconds, lowest discernible value 1, highest trackable 2^40 (our histogram's
// range), 3 significant digits (sub-buckets of 2048: 1 us wide up to 2047 us, then at most
// 1/1024 of the value wide). Our buckets are log-linear and wider (1 us below 64 us, then 1/32
// of a power of two), so each non-empty bucket's whole count goes to the HdrHistogram bucket
// holding our bucket's UPPER EDGE, the value our own percentiles report: a percentile read from
// the log is the one our summary shows, give or take HdrHistogram's 0.1%, and never below the
// true value. Nothing is spread or interpolated: counts stay exact integers and interval
// histograms still add up exactly.
// Encoding (big-endian): V2 header (cookie 0x1c849313, payload length, normalizing index
// offset 0, significant digits, lowest, highest, conversion ratio 1.0), then the counts array
// from index 0 to the last non-empty one as ZigZag LEB128 (HdrHistogram's 9-byte variant),
// where a run of two or more empty buckets is written as minus its length. Compressed: cookie
// 0x1c849314, the deflated length, then the V2 encoding deflated by zlib (zlib format).
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "stats/series.hpp"

namespace tpcc::report::hdr {

inline constexpr int significant_digits = 3;
inline constexpr std::uint64_t lowest_value = 1;
inline constexpr std::uint64_t highest_value = std::uint64_t{1} << 40;
inline constexpr unsigned sub_bucket_half_magnitude = 10;  // half of 2048 sub-buckets
inline constexpr std::uint32_t v2_cookie = 0x1c849313;
inline constexpr std::uint32_t v2_compressed_cookie = 0x1c849314;

// HdrHistogram's counts-array index of `micros` in the shape above.
[[nodiscard]] std::size_t index_of(std::uint64_t micros) noexcept;
// The value our bucket `i` stands for (its upper edge).
[[nodiscard]] std::uint64_t representative(std::uint32_t bucket) noexcept;
// The HdrHistogram counts array of `h`, up to its last non-empty index (one zero when empty).
[[nodiscard]] std::vector<std::uint64_t> counts_of(const stats::sparse_histogram& h);
// The largest value represented in `h` (0 when empty).
[[nodiscard]] std::uint64_t max_of(const stats::sparse_histogram& h) noexcept;

[[nodiscard]] std::vector<std::uint8_t> encode_v2(const std::vector<std::uint64_t>& counts);
[[nodiscard]] std::vector<std::uint8_t> compress_v2(const std::vector<std::uint8_t>& encoded);
[[nodiscard]] std::string base64(const std::vector<std::uint8_t>& bytes);

// All of the above: what goes in an interval-log line's last field.
[[nodiscard]] std::string encode_compressed_base64(const stats::sparse_histogram& h);

}  // namespace tpcc::report::hdr
