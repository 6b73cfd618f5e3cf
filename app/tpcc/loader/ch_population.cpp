// SPDX-License-Identifier: Apache-2.0
// The rows of CH-benCHmark's added tables (ch_population.hpp).
#include "loader/ch_population.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>

#include "loader/row_writer.hpp"
#include "random/strings.hpp"
#include "schema/ch_tables.hpp"

namespace tpcc::loader {
namespace {

using std::string_view;

constexpr std::array<string_view, 5> region_names{"Africa", "America", "Asia", "Europe",
                                                  "Middle East"};

// Key: the character code of '0'-'9', 'A'-'Z', 'a'-'z' in turn (the 62 characters a TPC-C
// a-string, hence C_STATE, is drawn from). Names in alphabetical order; regions as TPC-H places
// its 25 nations (0 Africa, 1 America, 2 Asia, 3 Europe, 4 Middle East), Oceania under Asia.
constexpr std::array<ch_nation, 62> nations{{
    {'0', "Algeria", 0},    {'1', "Argentina", 1},      {'2', "Australia", 2},
    {'3', "Austria", 3},    {'4', "Belgium", 3},        {'5', "Bolivia", 1},
    {'6', "Brazil", 1},     {'7', "Bulgaria", 3},       {'8', "Cambodia", 2},
    {'9', "Cameroon", 0},   {'A', "Canada", 1},         {'B', "Chile", 1},
    {'C', "China", 2},      {'D', "Colombia", 1},       {'E', "Czechia", 3},
    {'F', "Denmark", 3},    {'G', "Ecuador", 1},        {'H', "Egypt", 4},
    {'I', "Ethiopia", 0},   {'J', "Finland", 3},        {'K', "France", 3},
    {'L', "Germany", 3},    {'M', "Greece", 3},         {'N', "Hungary", 3},
    {'O', "India", 2},      {'P', "Indonesia", 2},      {'Q', "Iran", 4},
    {'R', "Iraq", 4},       {'S', "Ireland", 3},        {'T', "Israel", 4},
    {'U', "Italy", 3},      {'V', "Japan", 2},          {'W', "Jordan", 4},
    {'X', "Kenya", 0},      {'Y', "Kuwait", 4},         {'Z', "Lebanon", 4},
    {'a', "Malaysia", 2},   {'b', "Mexico", 1},         {'c', "Morocco", 0},
    {'d', "Mozambique", 0}, {'e', "Netherlands", 3},    {'f', "New Zealand", 2},
    {'g', "Nigeria", 0},    {'h', "Norway", 3},         {'i', "Oman", 4},
    {'j', "Pakistan", 2},   {'k', "Peru", 1},           {'l', "Philippines", 2},
    {'m', "Poland", 3},     {'n', "Portugal", 3},       {'o', "Qatar", 4},
    {'p', "Romania", 3},    {'q', "Russia", 3},         {'r', "Saudi Arabia", 4},
    {'s', "Senegal", 0},    {'t', "South Africa", 0},   {'u', "Spain", 3},
    {'v', "Sweden", 3},     {'w', "United Kingdom", 3}, {'x', "United States", 1},
    {'y', "Vietnam", 2},    {'z', "Zambia", 0},
}};

// One supplier in 200 (TPC-H's proportion of complaints, 5 in 10,000, made larger so that a
// small load has some) holds "bad" in its comment: Q16 leaves those suppliers out.
constexpr std::int64_t bad_comment_one_in = 200;

std::int64_t rows_of_table(std::size_t table) {
  constexpr std::array<std::int64_t, 3> rows{ch_region_count, ch_nation_count, ch_supplier_count};
  return rows[table];
}

void region_row(std::int64_t key, row_writer& w) {
  w.integer(key);
  w.text(region_names[static_cast<std::size_t>(key)]);
  w.text(std::string("region ") + std::string(region_names[static_cast<std::size_t>(key)]));
}

void nation_row(std::int64_t index, row_writer& w) {
  const ch_nation& n = nations[static_cast<std::size_t>(index)];
  w.integer(n.key);
  w.text(n.name);
  w.integer(n.region);
  w.text(std::string("nation ") + std::string(n.name));
}

// TPC-H's phone: a country code from the nation (10 + its index), then three groups of digits.
std::string supplier_phone(random::rng& r, std::int64_t nation_index) {
  // Drawn in order (the order of a call's arguments is unspecified).
  const long long first = r.uniform(100, 999);
  const long long second = r.uniform(100, 999);
  const long long third = r.uniform(1000, 9999);
  const long long country = 10 + nation_index;
  std::array<char, 96> b{};
  std::snprintf(b.data(), b.size(), "%02lld-%03lld-%03lld-%04lld", country, first, second, third);
  return b.data();
}

std::string supplier_comment(random::rng& r) {
  std::string comment = random::a_string(r, 25, 100);
  if (r.uniform(1, bad_comment_one_in) == 1) {
    const auto at =
        static_cast<std::size_t>(r.uniform(0, static_cast<std::int64_t>(comment.size()) - 3));
    comment.replace(at, 3, "bad");
  }
  return comment;
}

void supplier_row(random::rng& r, std::int64_t key, row_writer& w) {
  std::array<char, 48> name{};
  std::snprintf(name.data(), name.size(), "Supplier#%09lld", static_cast<long long>(key));
  const std::int64_t nation = r.uniform(0, ch_nation_count - 1);
  w.integer(key);
  w.text(name.data());
  w.text(random::a_string(r, 10, 40));
  w.integer(nations[static_cast<std::size_t>(nation)].key);
  w.text(supplier_phone(r, nation));
  w.number(static_cast<double>(r.uniform(-99'999, 999'999)) / 100.0);
  w.text(supplier_comment(r));
}

}  // namespace

std::span<const ch_nation> ch_nations() noexcept { return nations; }
std::span<const std::string_view> ch_regions() noexcept { return region_names; }

// A stream of its own, apart from every warehouse's (population.cpp seeds those with seed + a
// multiple of the golden ratio).
ch_population::ch_population(std::uint64_t seed) : rng_(seed ^ 0x43482D62656E6368ULL) {}

bool ch_population::next(driver::bulk_rows& out, std::size_t max_rows) {
  const std::span<const schema::table> tables = schema::ch_tables();
  while (table_ < tables.size() && row_ >= rows_of_table(table_)) {
    ++table_;
    row_ = 0;
  }
  row_writer w(out.values);
  if (table_ >= tables.size()) {
    w.finish();
    return false;
  }
  out.table = tables[table_].name;
  out.columns = tables[table_].columns;
  const std::int64_t end =
      std::min(rows_of_table(table_), row_ + static_cast<std::int64_t>(max_rows));
  for (; row_ < end; ++row_) {
    if (table_ == 0) region_row(row_, w);
    if (table_ == 1) nation_row(row_, w);
    if (table_ == 2) supplier_row(rng_, row_, w);
  }
  w.finish();
  return true;
}

}  // namespace tpcc::loader
