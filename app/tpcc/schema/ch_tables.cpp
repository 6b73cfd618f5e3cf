// SPDX-License-Identifier: Apache-2.0
// app/tpcc/schema/ch_tables.cpp: the DDL of CH-benCHmark's added tables (see ch_tables.hpp).
#include "schema/ch_tables.hpp"

#include <array>

namespace tpcc::schema {
namespace {

using driver::statement;
using std::string_view;

constexpr std::array<string_view, 3> region_columns{"r_regionkey", "r_name", "r_comment"};
constexpr std::array<string_view, 4> nation_columns{"n_nationkey", "n_name", "n_regionkey",
                                                    "n_comment"};
constexpr std::array<string_view, 7> supplier_columns{
    "su_suppkey", "su_name", "su_address", "su_nationkey", "su_phone", "su_acctbal", "su_comment"};

constexpr std::array<table, 3> added_tables{{
    {"region", region_columns},
    {"nation", nation_columns},
    {"supplier", supplier_columns},
}};

constexpr std::array<statement, 3> added_creates{{
    {"tpcc_create_region",
     "CREATE TABLE IF NOT EXISTS region ("
     "r_regionkey INTEGER NOT NULL, r_name VARCHAR(55), r_comment VARCHAR(152), "
     "PRIMARY KEY (r_regionkey))"},
    {"tpcc_create_nation",
     "CREATE TABLE IF NOT EXISTS nation ("
     "n_nationkey INTEGER NOT NULL, n_name VARCHAR(25), n_regionkey INTEGER, "
     "n_comment VARCHAR(152), PRIMARY KEY (n_nationkey))"},
    {"tpcc_create_supplier",
     "CREATE TABLE IF NOT EXISTS supplier ("
     "su_suppkey INTEGER NOT NULL, su_name VARCHAR(25), su_address VARCHAR(40), "
     "su_nationkey INTEGER, su_phone VARCHAR(15), su_acctbal NUMERIC(12,2), "
     "su_comment VARCHAR(101), PRIMARY KEY (su_suppkey))"},
}};

}  // namespace

std::span<const table> ch_tables() noexcept { return added_tables; }
std::span<const driver::statement> ch_create_statements() noexcept { return added_creates; }

}  // namespace tpcc::schema
