// SPDX-License-Identifier: Apache-2.0
// verdict_count.hpp: the count a line of the printed verdict reports, for tests of the binary.
//
// The verdict prints its failure lines whether or not anything failed ("lost transactions ...
// none" or "... worst: New-Order 1.20 % (12 of 1000)"), so a test that means "something was
// lost" checks the number, not the line. Pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tpcc::testing {

// The count of the worst type on the verdict line named `item` ("lost transactions"): 0 when
// the line says none, the N of "(N of M)" otherwise; nullopt when no such line is in `out`.
inline std::optional<std::uint64_t> verdict_count(std::string_view out, std::string_view item) {
  const std::size_t at = out.find(std::string(item) + " ");
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view line = out.substr(at);
  line = line.substr(0, line.find('\n'));
  const std::size_t open = line.find("worst: ");
  if (open == std::string_view::npos) {
    if (line.find(" none ") != std::string_view::npos) return 0;
    return std::nullopt;
  }
  const std::size_t paren = line.find('(', open);
  if (paren == std::string_view::npos) return std::nullopt;
  std::uint64_t n = 0;
  std::size_t i = paren + 1;
  for (; i < line.size() && line[i] >= '0' && line[i] <= '9'; ++i) {
    n = n * 10 + static_cast<std::uint64_t>(line[i] - '0');
  }
  if (i == paren + 1 || line.substr(i, 4) != " of ") return std::nullopt;
  return n;
}

}  // namespace tpcc::testing
