// SPDX-License-Identifier: Apache-2.0
// app/tpcc/schema/schema.cpp: the DDL of clause 1.3 (see schema.hpp).
#include "schema/schema.hpp"

#include <array>

namespace tpcc::schema {
namespace {

using driver::statement;
using std::string_view;

constexpr std::array<string_view, 9> warehouse_columns{
    "w_id", "w_name", "w_street_1", "w_street_2", "w_city", "w_state", "w_zip", "w_tax", "w_ytd"};
constexpr std::array<string_view, 11> district_columns{
    "d_id",    "d_w_id", "d_name", "d_street_1", "d_street_2", "d_city",
    "d_state", "d_zip",  "d_tax",  "d_ytd",      "d_next_o_id"};
constexpr std::array<string_view, 21> customer_columns{
    "c_id",          "c_d_id",         "c_w_id",       "c_first",    "c_middle",  "c_last",
    "c_street_1",    "c_street_2",     "c_city",       "c_state",    "c_zip",     "c_phone",
    "c_since",       "c_credit",       "c_credit_lim", "c_discount", "c_balance", "c_ytd_payment",
    "c_payment_cnt", "c_delivery_cnt", "c_data"};
constexpr std::array<string_view, 8> history_columns{"h_c_id", "h_c_d_id", "h_c_w_id", "h_d_id",
                                                     "h_w_id", "h_date",   "h_amount", "h_data"};
constexpr std::array<string_view, 3> new_order_columns{"no_o_id", "no_d_id", "no_w_id"};
constexpr std::array<string_view, 8> orders_columns{
    "o_id", "o_d_id", "o_w_id", "o_c_id", "o_entry_d", "o_carrier_id", "o_ol_cnt", "o_all_local"};
constexpr std::array<string_view, 10> order_line_columns{
    "ol_o_id",        "ol_d_id",       "ol_w_id",     "ol_number", "ol_i_id",
    "ol_supply_w_id", "ol_delivery_d", "ol_quantity", "ol_amount", "ol_dist_info"};
constexpr std::array<string_view, 5> item_columns{"i_id", "i_im_id", "i_name", "i_price", "i_data"};
constexpr std::array<string_view, 17> stock_columns{
    "s_i_id",    "s_w_id",    "s_quantity",  "s_dist_01",    "s_dist_02", "s_dist_03",
    "s_dist_04", "s_dist_05", "s_dist_06",   "s_dist_07",    "s_dist_08", "s_dist_09",
    "s_dist_10", "s_ytd",     "s_order_cnt", "s_remote_cnt", "s_data"};

constexpr std::array<table, 9> all_tables{{
    {"item", item_columns},
    {"warehouse", warehouse_columns},
    {"district", district_columns},
    {"customer", customer_columns},
    {"history", history_columns},
    {"orders", orders_columns},
    {"new_order", new_order_columns},
    {"order_line", order_line_columns},
    {"stock", stock_columns},
}};

constexpr std::array<statement, 11> creates{{
    {"tpcc_create_warehouse",
     "CREATE TABLE IF NOT EXISTS warehouse ("
     "w_id INTEGER NOT NULL, w_name VARCHAR(10), w_street_1 VARCHAR(20), "
     "w_street_2 VARCHAR(20), w_city VARCHAR(20), w_state CHAR(2), w_zip CHAR(9), "
     "w_tax NUMERIC(4,4), w_ytd NUMERIC(12,2), PRIMARY KEY (w_id))"},
    {"tpcc_create_district",
     "CREATE TABLE IF NOT EXISTS district ("
     "d_id INTEGER NOT NULL, d_w_id INTEGER NOT NULL, d_name VARCHAR(10), "
     "d_street_1 VARCHAR(20), d_street_2 VARCHAR(20), d_city VARCHAR(20), d_state CHAR(2), "
     "d_zip CHAR(9), d_tax NUMERIC(4,4), d_ytd NUMERIC(12,2), d_next_o_id INTEGER, "
     "PRIMARY KEY (d_w_id, d_id))"},
    {"tpcc_create_customer",
     "CREATE TABLE IF NOT EXISTS customer ("
     "c_id INTEGER NOT NULL, c_d_id INTEGER NOT NULL, c_w_id INTEGER NOT NULL, "
     "c_first VARCHAR(16), c_middle CHAR(2), c_last VARCHAR(16), c_street_1 VARCHAR(20), "
     "c_street_2 VARCHAR(20), c_city VARCHAR(20), c_state CHAR(2), c_zip CHAR(9), "
     "c_phone CHAR(16), c_since TIMESTAMP, c_credit CHAR(2), c_credit_lim NUMERIC(12,2), "
     "c_discount NUMERIC(4,4), c_balance NUMERIC(12,2), c_ytd_payment NUMERIC(12,2), "
     "c_payment_cnt INTEGER, c_delivery_cnt INTEGER, c_data VARCHAR(500), "
     "PRIMARY KEY (c_w_id, c_d_id, c_id))"},
    {"tpcc_create_history",
     "CREATE TABLE IF NOT EXISTS history ("
     "h_c_id INTEGER, h_c_d_id INTEGER, h_c_w_id INTEGER, h_d_id INTEGER, "
     "h_w_id INTEGER NOT NULL, h_date TIMESTAMP, h_amount NUMERIC(6,2), h_data VARCHAR(24))"},
    {"tpcc_create_orders",
     "CREATE TABLE IF NOT EXISTS orders ("
     "o_id INTEGER NOT NULL, o_d_id INTEGER NOT NULL, o_w_id INTEGER NOT NULL, "
     "o_c_id INTEGER, o_entry_d TIMESTAMP, o_carrier_id INTEGER, o_ol_cnt INTEGER, "
     "o_all_local INTEGER, PRIMARY KEY (o_w_id, o_d_id, o_id))"},
    {"tpcc_create_new_order",
     "CREATE TABLE IF NOT EXISTS new_order ("
     "no_o_id INTEGER NOT NULL, no_d_id INTEGER NOT NULL, no_w_id INTEGER NOT NULL, "
     "PRIMARY KEY (no_w_id, no_d_id, no_o_id))"},
    {"tpcc_create_order_line",
     "CREATE TABLE IF NOT EXISTS order_line ("
     "ol_o_id INTEGER NOT NULL, ol_d_id INTEGER NOT NULL, ol_w_id INTEGER NOT NULL, "
     "ol_number INTEGER NOT NULL, ol_i_id INTEGER, ol_supply_w_id INTEGER, "
     "ol_delivery_d TIMESTAMP, ol_quantity INTEGER, ol_amount NUMERIC(6,2), "
     "ol_dist_info CHAR(24), PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number))"},
    {"tpcc_create_item",
     "CREATE TABLE IF NOT EXISTS item ("
     "i_id INTEGER NOT NULL, i_im_id INTEGER, i_name VARCHAR(24), i_price NUMERIC(5,2), "
     "i_data VARCHAR(50), PRIMARY KEY (i_id))"},
    {"tpcc_create_stock",
     "CREATE TABLE IF NOT EXISTS stock ("
     "s_i_id INTEGER NOT NULL, s_w_id INTEGER NOT NULL, s_quantity INTEGER, "
     "s_dist_01 CHAR(24), s_dist_02 CHAR(24), s_dist_03 CHAR(24), s_dist_04 CHAR(24), "
     "s_dist_05 CHAR(24), s_dist_06 CHAR(24), s_dist_07 CHAR(24), s_dist_08 CHAR(24), "
     "s_dist_09 CHAR(24), s_dist_10 CHAR(24), s_ytd INTEGER, s_order_cnt INTEGER, "
     "s_remote_cnt INTEGER, s_data VARCHAR(50), PRIMARY KEY (s_w_id, s_i_id))"},
    {"tpcc_create_meta",
     "CREATE TABLE IF NOT EXISTS tpcc_meta ("
     "name VARCHAR(32) NOT NULL, value VARCHAR(64), PRIMARY KEY (name))"},
    {"tpcc_create_loaded",
     "CREATE TABLE IF NOT EXISTS tpcc_loaded (w_id INTEGER NOT NULL, PRIMARY KEY (w_id))"},
}};

// Payment and Order-Status by last name (clause 2.5.2.2, 2.6.2.2); Order-Status's latest
// order of a customer (2.6.2.2); HISTORY by paying district and by customer, so that the
// consistency check (3.3.2.8-10) reads a warehouse range, not the whole table, per chunk.
constexpr std::array<index_statement, 4> indexes{{
    {{"tpcc_index_customer_name",
      "CREATE INDEX IF NOT EXISTS customer_by_name ON customer (c_w_id, c_d_id, c_last, c_first)",
      "CREATE INDEX customer_by_name ON customer (c_w_id, c_d_id, c_last, c_first)"},
     {"tpcc_index_customer_name_exists", "SELECT 0",
      "SELECT count(*) FROM information_schema.statistics "
      "WHERE table_schema = DATABASE() AND index_name = 'customer_by_name'"}},
    {{"tpcc_index_orders_customer",
      "CREATE INDEX IF NOT EXISTS orders_by_customer ON orders (o_w_id, o_d_id, o_c_id, o_id)",
      "CREATE INDEX orders_by_customer ON orders (o_w_id, o_d_id, o_c_id, o_id)"},
     {"tpcc_index_orders_customer_exists", "SELECT 0",
      "SELECT count(*) FROM information_schema.statistics "
      "WHERE table_schema = DATABASE() AND index_name = 'orders_by_customer'"}},
    {{"tpcc_index_history_district",
      "CREATE INDEX IF NOT EXISTS history_by_district ON history (h_w_id, h_d_id)",
      "CREATE INDEX history_by_district ON history (h_w_id, h_d_id)"},
     {"tpcc_index_history_district_exists", "SELECT 0",
      "SELECT count(*) FROM information_schema.statistics "
      "WHERE table_schema = DATABASE() AND index_name = 'history_by_district'"}},
    {{"tpcc_index_history_customer",
      "CREATE INDEX IF NOT EXISTS history_by_customer ON history (h_c_w_id, h_c_d_id, h_c_id)",
      "CREATE INDEX history_by_customer ON history (h_c_w_id, h_c_d_id, h_c_id)"},
     {"tpcc_index_history_customer_exists", "SELECT 0",
      "SELECT count(*) FROM information_schema.statistics "
      "WHERE table_schema = DATABASE() AND index_name = 'history_by_customer'"}},
}};

constexpr std::array<statement, 14> drops{{
    {"tpcc_drop_supplier", "DROP TABLE IF EXISTS supplier"},  // CH-benCHmark's (ch_tables.hpp)
    {"tpcc_drop_nation", "DROP TABLE IF EXISTS nation"},
    {"tpcc_drop_region", "DROP TABLE IF EXISTS region"},
    {"tpcc_drop_order_line", "DROP TABLE IF EXISTS order_line"},
    {"tpcc_drop_new_order", "DROP TABLE IF EXISTS new_order"},
    {"tpcc_drop_orders", "DROP TABLE IF EXISTS orders"},
    {"tpcc_drop_history", "DROP TABLE IF EXISTS history"},
    {"tpcc_drop_customer", "DROP TABLE IF EXISTS customer"},
    {"tpcc_drop_district", "DROP TABLE IF EXISTS district"},
    {"tpcc_drop_stock", "DROP TABLE IF EXISTS stock"},
    {"tpcc_drop_warehouse", "DROP TABLE IF EXISTS warehouse"},
    {"tpcc_drop_item", "DROP TABLE IF EXISTS item"},
    {"tpcc_drop_meta", "DROP TABLE IF EXISTS tpcc_meta"},
    {"tpcc_drop_loaded", "DROP TABLE IF EXISTS tpcc_loaded"},
}};

}  // namespace

const driver::statement meta_get{"tpcc_meta_get", "SELECT value FROM tpcc_meta WHERE name = $1"};
const driver::statement meta_put{"tpcc_meta_put",
                                 "INSERT INTO tpcc_meta (name, value) VALUES ($1, $2)"};
const driver::statement meta_delete{"tpcc_meta_delete", "DELETE FROM tpcc_meta WHERE name = $1"};
const driver::statement loaded_mark{"tpcc_loaded_mark",
                                    "INSERT INTO tpcc_loaded (w_id) VALUES ($1)"};
const driver::statement loaded_list{"tpcc_loaded_list",
                                    "SELECT w_id FROM tpcc_loaded ORDER BY w_id"};
const driver::statement loaded_count{"tpcc_loaded_count",
                                     "SELECT count(*) FROM tpcc_loaded WHERE w_id > 0"};

std::span<const table> tables() noexcept { return all_tables; }

const table* find_table(std::string_view name) noexcept {
  for (const table& t : all_tables) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

std::span<const driver::statement> create_statements() noexcept { return creates; }
std::span<const index_statement> index_statements() noexcept { return indexes; }
std::span<const driver::statement> drop_statements() noexcept { return drops; }

}  // namespace tpcc::schema
