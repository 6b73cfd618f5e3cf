// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/hdr_encode.cpp: the HdrHistogram mapping and V2 encoding (see hdr_encode.hpp).
#include "report/hdr_encode.hpp"

#include <zlib.h>

#include <array>
#include <bit>
#include <cstring>
#include <stdexcept>

#include "stats/histogram.hpp"

namespace tpcc::report::hdr {
namespace {

// Sub-bucket mask: values below 2048 are in bucket 0, one unit per index.
constexpr std::uint64_t sub_bucket_mask = (std::uint64_t{1} << (sub_bucket_half_magnitude + 1)) - 1;
// 64 - unit magnitude (0) - sub-bucket half-count magnitude - 1.
constexpr int leading_zero_base = 64 - static_cast<int>(sub_bucket_half_magnitude) - 1;

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(v >> shift));
}

void put_u64(std::vector<std::uint8_t>& out, std::uint64_t v) {
  put_u32(out, static_cast<std::uint32_t>(v >> 32));
  put_u32(out, static_cast<std::uint32_t>(v));
}

void set_u32(std::vector<std::uint8_t>& out, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i)
    out[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

// ZigZag, then LEB128 in HdrHistogram's 64-bit variant: at most 9 bytes, the ninth carrying
// the last 8 bits whole.
void put_zigzag(std::vector<std::uint8_t>& out, std::int64_t value) {
  std::uint64_t v =
      (static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63);
  for (int i = 0; i < 8; ++i) {
    if ((v >> 7) == 0) {
      out.push_back(static_cast<std::uint8_t>(v));
      return;
    }
    out.push_back(static_cast<std::uint8_t>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}

}  // namespace

std::size_t index_of(std::uint64_t micros) noexcept {
  const int bucket = leading_zero_base - std::countl_zero(micros | sub_bucket_mask);
  const std::uint64_t sub = micros >> bucket;
  return (static_cast<std::size_t>(bucket) << sub_bucket_half_magnitude) +
         static_cast<std::size_t>(sub);
}

std::uint64_t representative(std::uint32_t bucket) noexcept {
  return stats::bucket::upper_edge(bucket);
}

std::uint64_t max_of(const stats::sparse_histogram& h) noexcept {
  return h.buckets.empty() ? 0 : representative(h.buckets.back().first);
}

std::vector<std::uint64_t> counts_of(const stats::sparse_histogram& h) {
  std::vector<std::uint64_t> counts(index_of(max_of(h)) + 1, 0);
  for (const auto& [bucket, n] : h.buckets) counts[index_of(representative(bucket))] += n;
  return counts;
}

std::vector<std::uint8_t> encode_v2(const std::vector<std::uint64_t>& counts) {
  std::vector<std::uint8_t> out;
  put_u32(out, v2_cookie);
  put_u32(out, 0);  // payload length, set below
  put_u32(out, 0);  // normalizing index offset
  put_u32(out, static_cast<std::uint32_t>(significant_digits));
  put_u64(out, lowest_value);
  put_u64(out, highest_value);
  put_u64(out, std::bit_cast<std::uint64_t>(1.0));  // integer-to-double conversion ratio
  const std::size_t payload = out.size();
  for (std::size_t i = 0; i < counts.size();) {
    std::size_t zeros = 0;
    while (i + zeros < counts.size() && counts[i + zeros] == 0) ++zeros;
    if (zeros > 1) {
      put_zigzag(out, -static_cast<std::int64_t>(zeros));
      i += zeros;
    } else {
      put_zigzag(out, static_cast<std::int64_t>(counts[i]));
      ++i;
    }
  }
  set_u32(out, 4, static_cast<std::uint32_t>(out.size() - payload));
  return out;
}

std::vector<std::uint8_t> compress_v2(const std::vector<std::uint8_t>& encoded) {
  uLongf length = compressBound(static_cast<uLong>(encoded.size()));
  std::vector<std::uint8_t> out(8 + length);
  const int status = compress2(out.data() + 8, &length, encoded.data(),
                               static_cast<uLong>(encoded.size()), Z_BEST_COMPRESSION);
  if (status != Z_OK) throw std::runtime_error("zlib compress2 failed");
  out.resize(8 + length);
  set_u32(out, 0, v2_compressed_cookie);
  set_u32(out, 4, static_cast<std::uint32_t>(length));
  return out;
}

std::string base64(const std::vector<std::uint8_t>& bytes) {
  static constexpr std::string_view alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t group = std::uint32_t{bytes[i]} << 16;
    if (n > 1) group |= std::uint32_t{bytes[i + 1]} << 8;
    if (n > 2) group |= bytes[i + 2];
    for (std::size_t k = 0; k < 4; ++k) {
      out += k <= n ? alphabet[(group >> (18 - 6 * k)) & 0x3f] : '=';
    }
  }
  return out;
}

std::string encode_compressed_base64(const stats::sparse_histogram& h) {
  return base64(compress_v2(encode_v2(counts_of(h))));
}

}  // namespace tpcc::report::hdr
