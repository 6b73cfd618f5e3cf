// SPDX-License-Identifier: Apache-2.0
// tests/app/report/hdr_log_test.cpp: the HdrHistogram interval log: the mapping onto
// HdrHistogram's buckets, the V2 encoding read back by an independent decoder written here
// (inflate, header, ZigZag LEB128 with zero runs), and the whole log read by HdrHistogram's own
// Java reader and HistogramLogProcessor (Debian libhdrhistogram-java), for a synthetic series
// and for a real short run of the binary on SQLite.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "binary.hpp"
#include "report/hdr_encode.hpp"
#include "report/hdr_log.hpp"
#include "sample_run.hpp"
#include "support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
namespace hdr = tpcc::report::hdr;
using namespace std::chrono_literals;

// --- an independent decoder of HdrHistogram's compressed V2 encoding -------------------------

std::vector<std::uint8_t> from_base64(const std::string& text) {
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::vector<std::uint8_t> out;
  std::uint32_t bits = 0;
  int have = 0;
  for (const char ch : text) {
    if (ch == '=') break;
    bits = (bits << 6) | static_cast<std::uint32_t>(alphabet.find(ch));
    have += 6;
    if (have >= 8) {
      have -= 8;
      out.push_back(static_cast<std::uint8_t>(bits >> have));
    }
  }
  return out;
}

std::uint64_t big_endian(const std::vector<std::uint8_t>& b, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | b[at + static_cast<std::size_t>(i)];
  return v;
}

struct decoded {
  std::uint32_t cookie = 0;
  std::uint32_t digits = 0;
  std::uint64_t lowest = 0, highest = 0;
  std::vector<std::uint64_t> counts;
};

// ZigZag LEB128 (up to 9 bytes, the ninth whole).
std::int64_t read_varint(const std::vector<std::uint8_t>& b, std::size_t& at) {
  std::uint64_t v = 0;
  for (int i = 0; i < 9; ++i) {
    const std::uint64_t byte = b.at(at++);
    if (i == 8) {
      v |= byte << 56;
      break;
    }
    v |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) == 0) break;
  }
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

decoded decode_uncompressed(const std::vector<std::uint8_t>& b) {
  decoded d;
  d.cookie = static_cast<std::uint32_t>(big_endian(b, 0, 4));
  const std::size_t payload = big_endian(b, 4, 4);
  d.digits = static_cast<std::uint32_t>(big_endian(b, 12, 4));
  d.lowest = big_endian(b, 16, 8);
  d.highest = big_endian(b, 24, 8);
  std::size_t at = 40;
  while (at < 40 + payload) {
    const std::int64_t v = read_varint(b, at);
    if (v < 0) {
      d.counts.insert(d.counts.end(), static_cast<std::size_t>(-v), 0);
    } else {
      d.counts.push_back(static_cast<std::uint64_t>(v));
    }
  }
  return d;
}

decoded decode_compressed(const std::vector<std::uint8_t>& b) {
  EXPECT_EQ(big_endian(b, 0, 4), hdr::v2_compressed_cookie);
  const std::size_t length = big_endian(b, 4, 4);
  EXPECT_EQ(length + 8, b.size());
  std::vector<std::uint8_t> plain(1 << 20);
  uLongf size = plain.size();
  EXPECT_EQ(uncompress(plain.data(), &size, b.data() + 8, static_cast<uLong>(length)), Z_OK);
  plain.resize(size);
  return decode_uncompressed(plain);
}

std::uint64_t total(const std::vector<std::uint64_t>& counts) {
  std::uint64_t n = 0;
  for (const std::uint64_t c : counts) n += c;
  return n;
}

// --- the mapping and the encoding ------------------------------------------------------------

TEST(hdr_encode, IndexFollowsHdrHistogramsLayoutAtThreeDigits) {
  EXPECT_EQ(hdr::index_of(0), 0U);
  EXPECT_EQ(hdr::index_of(2047), 2047U);  // unit resolution below 2048
  EXPECT_EQ(hdr::index_of(2048), 2048U);  // then 2 us wide
  EXPECT_EQ(hdr::index_of(2049), 2048U);
  EXPECT_EQ(hdr::index_of(4095), 3071U);
  EXPECT_EQ(hdr::index_of(4096), 3072U);  // then 4 us wide
  EXPECT_EQ(hdr::index_of(4099), 3072U);
  EXPECT_EQ(hdr::index_of(4100), 3073U);
  EXPECT_LT(hdr::index_of(hdr::highest_value - 1), 32768U);  // 31 buckets + 1 of 1024
  // Continuous, and no bucket wider than 1/1024 of its values.
  std::size_t previous = 0;
  std::uint64_t bucket_start = 0;
  for (std::uint64_t v = 1; v < 5'000'000; v += 1 + v / 5000) {
    const std::size_t i = hdr::index_of(v);
    ASSERT_LE(i - previous, 1U + v / 5000) << v;
    if (i != previous) bucket_start = v;
    ASSERT_LE(v - bucket_start, v / 1024 + 1) << v;
    previous = i;
  }
}

TEST(hdr_encode, CountsGoToTheBucketOfOurUpperEdge) {
  tpcc::stats::histogram h;
  h.record(10, 3);      // our bucket 10 (1 us wide): upper edge 10
  h.record(1000, 5);    // our bucket [992, 1007]: upper edge 1007
  h.record(100000, 2);  // [98304, 100351]: upper edge 100351
  const auto counts = hdr::counts_of(tpcc::stats::sparse_histogram::of(h));
  ASSERT_EQ(counts.size(), hdr::index_of(100351) + 1);
  EXPECT_EQ(counts[10], 3U);
  EXPECT_EQ(counts[1007], 5U);
  EXPECT_EQ(counts.back(), 2U);
  EXPECT_EQ(total(counts), 10U);
}

TEST(hdr_encode, PayloadIsZigZagWithNegativeZeroRuns) {
  const auto bytes = hdr::encode_v2({5, 0, 0, 0, 7, 0, 300});
  ASSERT_EQ(bytes.size(), 40U + 6U);
  EXPECT_EQ(big_endian(bytes, 0, 4), hdr::v2_cookie);
  EXPECT_EQ(big_endian(bytes, 4, 4), 6U);
  EXPECT_EQ(big_endian(bytes, 8, 4), 0U);   // normalizing index offset
  EXPECT_EQ(big_endian(bytes, 12, 4), 3U);  // significant digits
  EXPECT_EQ(big_endian(bytes, 16, 8), 1U);
  EXPECT_EQ(big_endian(bytes, 24, 8), std::uint64_t{1} << 40);
  EXPECT_EQ(big_endian(bytes, 32, 8), 0x3ff0000000000000U);  // 1.0
  // 5 -> 10; a run of 3 zeros -> -3 -> 5; 7 -> 14; a lone zero -> 0; 300 -> 600 (2 bytes).
  const std::vector<std::uint8_t> payload(bytes.begin() + 40, bytes.end());
  EXPECT_EQ(payload, (std::vector<std::uint8_t>{0x0a, 0x05, 0x0e, 0x00, 0xd8, 0x04}));
}

TEST(hdr_encode, Base64IsTheStandardAlphabetWithPadding) {
  auto b64 = [](const std::string& s) {
    return hdr::base64(std::vector<std::uint8_t>(s.begin(), s.end()));
  };
  EXPECT_EQ(b64(""), "");
  EXPECT_EQ(b64("f"), "Zg==");
  EXPECT_EQ(b64("fo"), "Zm8=");
  EXPECT_EQ(b64("foo"), "Zm9v");
  EXPECT_EQ(b64("foobar"), "Zm9vYmFy");
  EXPECT_EQ(hdr::base64({0xfb, 0xff}), "+/8=");
}

TEST(hdr_encode, AnIndependentDecoderReadsBackEveryCount) {
  const tpcc::run::run_result r = tpcc::testing::sample_run(30, 1.0);
  for (const auto& s : r.series) {
    for (const auto& k : s.kinds) {
      const decoded d = decode_compressed(from_base64(hdr::encode_compressed_base64(k.response)));
      EXPECT_EQ(d.cookie, hdr::v2_cookie);
      EXPECT_EQ(d.digits, 3U);
      EXPECT_EQ(d.lowest, 1U);
      EXPECT_EQ(d.highest, hdr::highest_value);
      EXPECT_EQ(d.counts, hdr::counts_of(k.response));
      EXPECT_EQ(total(d.counts), k.response.count());
    }
  }
  const decoded empty = decode_compressed(from_base64(hdr::encode_compressed_base64({})));
  EXPECT_EQ(empty.counts, std::vector<std::uint64_t>{0});
}

// --- the log ---------------------------------------------------------------------------------

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(hdr_log, HasStartAndBaseTimeTheLegendAndFifteenTaggedLinesPerInterval) {
  const std::vector<std::string> lines =
      lines_of(tpcc::report::format_hdr_log(tpcc::testing::sample_run(20, 2.0)));
  ASSERT_EQ(lines.size(), 5U + 20U * 15U);
  EXPECT_EQ(lines[1], "#[Histogram log format version 1.3]");
  EXPECT_EQ(lines[2].rfind("#[StartTime: 1700000000.000 (seconds since epoch), 2023-11-14", 0), 0U);
  EXPECT_EQ(lines[3], "#[BaseTime: 1700000000.000 (seconds since epoch)]");
  EXPECT_EQ(lines[4],
            R"("StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram")");
  EXPECT_EQ(lines[5].rfind("Tag=NewOrder-response,0.000,2.000,", 0), 0U);
  EXPECT_EQ(lines[6].rfind("Tag=NewOrder-queued,0.000,2.000,0.000,", 0), 0U);
  EXPECT_EQ(lines[7].rfind("Tag=NewOrder-service,0.000,2.000,", 0), 0U);
  EXPECT_EQ(lines[19].rfind("Tag=StockLevel-service,0.000,2.000,", 0), 0U);
  EXPECT_EQ(lines.back().rfind("Tag=StockLevel-service,38.000,2.000,", 0), 0U);
}

TEST(hdr_log, WriteFailureNamesThePath) {
  const auto error = tpcc::report::write_hdr_log(tpcc::testing::sample_run(5, 1.0),
                                                 "/nonexistent-dir-shoal/run.hlog");
  ASSERT_TRUE(error.has_value());
  const std::string message = error.value_or("");
  EXPECT_NE(message.find("/nonexistent-dir-shoal/run.hlog"), std::string::npos) << message;
}

// --- HdrHistogram's own Java reader ----------------------------------------------------------

constexpr const char* hdr_jar = "/usr/share/java/hdrhistogram.jar";

struct command_result {
  int exit_code = -1;
  std::string out;
};

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

command_result run_command(const std::string& command, const fs::path& dir) {
  const fs::path out = dir / "command.out";
  std::string line = "timeout 300 ";
  line.append(command).append(" >").append(out.string()).append(" 2>&1");
  const int status = std::system(line.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(out)};
}

constexpr const char* java_reader = R"java(
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

public class ReadLog {
  public static void main(String[] args) throws Exception {
    HistogramLogReader reader = new HistogramLogReader(args[0]);
    EncodableHistogram e;
    while ((e = reader.nextIntervalHistogram()) != null) {
      Histogram h = (Histogram) e;
      System.out.println(h.getTag() + " " + h.getStartTimeStamp() + " " + h.getEndTimeStamp()
          + " " + h.getTotalCount() + " " + h.getMaxValue() + " " + h.getValueAtPercentile(90.0));
    }
  }
}
)java";

bool java_available() {
  return ::access(hdr_jar, R_OK) == 0 && std::system("javac -version >/dev/null 2>&1") == 0;
}

struct java_line {
  std::string tag;
  long long start_ms = 0, end_ms = 0;
  std::uint64_t count = 0, max = 0, p90 = 0;
};

// Compiles ReadLog.java in `dir` and reads `log` with HdrHistogram's HistogramLogReader.
std::vector<java_line> read_with_java(const fs::path& dir, const fs::path& log) {
  std::ofstream(dir / "ReadLog.java") << java_reader;
  std::string compile = "javac -cp ";
  compile.append(hdr_jar).append(" -d ").append(dir.string()).append(" ");
  compile.append((dir / "ReadLog.java").string());
  const command_result built = run_command(compile, dir);
  EXPECT_EQ(built.exit_code, 0) << built.out;
  std::string run = "java -cp ";
  run.append(hdr_jar).append(":").append(dir.string()).append(" ReadLog ").append(log.string());
  const command_result read = run_command(run, dir);
  EXPECT_EQ(read.exit_code, 0) << read.out;
  std::vector<java_line> out;
  std::istringstream in(read.out);
  for (java_line l; in >> l.tag >> l.start_ms >> l.end_ms >> l.count >> l.max >> l.p90;) {
    out.push_back(l);
  }
  return out;
}

// HdrHistogram reports the top of its bucket: at most 1/1024 above ours (plus one unit).
void expect_close(std::uint64_t theirs, std::uint64_t ours, const std::string& what) {
  EXPECT_GE(theirs, ours) << what;
  EXPECT_LE(theirs, ours + ours / 1024 + 1) << what;
}

TEST(hdr_log, HdrHistogramsJavaReaderReadsEveryIntervalAndCount) {
  if (!java_available()) GTEST_SKIP() << "javac or libhdrhistogram-java missing";
  const tpcc::testing::temp_dir dir("shoal-hdr");
  const tpcc::run::run_result r = tpcc::testing::sample_run(40, 1.0);
  ASSERT_FALSE(tpcc::report::write_hdr_log(r, (dir.path() / "run.hlog").string()));
  const std::vector<java_line> lines = read_with_java(dir.path(), dir.path() / "run.hlog");
  ASSERT_EQ(lines.size(), 40U * 15U);
  const std::array<std::string, 5> tags{"NewOrder", "Payment", "OrderStatus", "Delivery",
                                        "StockLevel"};
  std::size_t at = 0;
  for (std::size_t i = 0; i < r.series.size(); ++i) {
    for (std::size_t k = 0; k < 5; ++k) {
      const auto& views = r.series[i].kinds[k];
      for (const auto* h : {&views.response, &views.queued, &views.service}) {
        const java_line& l = lines[at++];
        const std::string where = l.tag + " interval " + std::to_string(i);
        EXPECT_EQ(l.tag.rfind(tags[k] + "-", 0), 0U) << where;
        EXPECT_EQ(l.start_ms, 1'700'000'000'000LL + static_cast<long long>(i) * 1000) << where;
        EXPECT_EQ(l.end_ms - l.start_ms, 1000) << where;
        EXPECT_EQ(l.count, h->count()) << where;
        if (h->count() == 0) continue;
        expect_close(l.max, hdr::max_of(*h), where + " max");
        expect_close(l.p90, h->expand().percentile(0.9), where + " p90");  // same rank rule
      }
    }
  }
  // And the standard command-line processor adds up one tag over the whole log: its
  // percentile distribution's last line carries the total count.
  std::string processor = "java -cp ";
  processor.append(hdr_jar).append(" org.HdrHistogram.HistogramLogProcessor -i ");
  processor.append((dir.path() / "run.hlog").string());
  processor.append(" -tag NewOrder-response -outputValueUnitRatio 1000 -csv");
  const command_result summary = run_command(processor, dir.path());
  ASSERT_EQ(summary.exit_code, 0) << summary.out;
  std::uint64_t new_orders = 0;
  for (const auto& s : r.series) new_orders += s.kinds[0].response.count();
  const std::vector<std::string> rows = lines_of(summary.out);
  ASSERT_GT(rows.size(), 10U) << summary.out;
  std::istringstream last(rows.back());
  std::string value, percentile, count;
  std::getline(last, value, ',');
  std::getline(last, percentile, ',');
  std::getline(last, count, ',');
  EXPECT_EQ(percentile, "1.000000000000") << summary.out;
  EXPECT_EQ(count, std::to_string(new_orders)) << summary.out;
  // Values in ms with -outputValueUnitRatio 1000: the maximum is ours, within 0.1%.
  std::uint64_t max_us = 0;
  for (const auto& s : r.series) max_us = std::max(max_us, hdr::max_of(s.kinds[0].response));
  expect_close(static_cast<std::uint64_t>(std::llround(std::stod(value) * 1000)), max_us,
               "processor max");
}

#ifdef SHOAL_TPCC_BINARY
TEST(hdr_log, ARealShortRunOnSqliteIsReadByHdrHistogram) {
  if (!java_available()) GTEST_SKIP() << "javac or libhdrhistogram-java missing";
  const tpcc::testing::temp_dir dir("shoal-hdr");
  const std::string db = std::string("sqlite:").append((dir.path() / "tpcc.db").string());
  const fs::path log = dir.path() / "run.hlog";
  using tpcc::testing::run_binary;
  auto r = run_binary({"init", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_binary({"load", "--db", db, "--warehouses", "1", "--no-progress"}, 300s);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_binary(
      {"run", "--db", db, "--warmup", "2s", "--duration", "6s", "--drain", "10s", "--wait-scale",
       "0.01", "--seed", "42", "--no-progress", "--hdr-log", log.string()},
      300s);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  // Our decoder and HdrHistogram's agree on every line's count; New-Orders were recorded.
  std::vector<std::uint64_t> ours;
  std::uint64_t new_orders = 0;
  for (const std::string& line : lines_of(read_file(log))) {
    if (line.rfind("Tag=", 0) != 0) continue;
    const decoded d = decode_compressed(from_base64(line.substr(line.rfind(',') + 1)));
    ours.push_back(total(d.counts));
    if (line.rfind("Tag=NewOrder-response,", 0) == 0) new_orders += ours.back();
  }
  const std::vector<java_line> theirs = read_with_java(dir.path(), log);
  ASSERT_EQ(theirs.size(), ours.size());
  ASSERT_GE(ours.size(), 8U * 15U);  // at least the 8 s of warm-up and measurement
  for (std::size_t i = 0; i < ours.size(); ++i) EXPECT_EQ(theirs[i].count, ours[i]) << i;
  EXPECT_GT(new_orders, 0U);
}
#endif

}  // namespace
