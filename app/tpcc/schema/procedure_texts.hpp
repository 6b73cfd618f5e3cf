// SPDX-License-Identifier: Apache-2.0
// app/tpcc/schema/procedure_texts.hpp: the DDL of --procedures, per engine (procedures.hpp runs
// it).
//
// What: PostgreSQL's five CREATE OR REPLACE FUNCTION statements, and MySQL/MariaDB's DROP
// PROCEDURE IF EXISTS + CREATE PROCEDURE pairs, in the order New-Order, Payment, Order-Status,
// Delivery, Stock-Level. Their parameters and the row each returns are the contract with
// txn/procedures.hpp, which calls them:
//   tpcc_new_order(w_id, d_id, c_id, ol_numbers, items, supply_w_ids, quantities, entry_d)
//     the lines as comma-separated lists in stock-update order (txn::stock_order), each with
//     its OL_NUMBER -> o_id, d_tax, w_tax, c_discount, c_last, c_credit, total, lines: per line
//     "ol_number,i_name,i_price,s_quantity,B|G,ol_amount", lines joined by ';'. An unused item
//     raises SQLSTATE TPCRB "Item number is not valid: o_id=N c_credit=XX c_last=NAME".
//   tpcc_payment(w_id, d_id, c_w_id, c_d_id, c_id, c_last, by_name, h_amount, bc_tail, h_date)
//     -> the warehouse's and district's street_1, street_2, city, state, zip, then c_id, c_first,
//     c_middle, c_last, the customer's address (5), c_phone, c_since, c_credit, c_credit_lim,
//     c_discount, c_balance, substr(c_data, 1, 200). A BC customer's C_DATA gets C_ID + bc_tail
//     in front.
//   tpcc_order_status(w_id, d_id, c_id, c_last, by_name) -> c_id, c_first, c_middle, c_last,
//     c_balance, o_id, o_entry_d, o_carrier_id, lines: per line
//     "supply_w_id,i_id,quantity,amount,delivery_d" (delivery_d empty until delivered), ';'.
//   tpcc_delivery(w_id, o_carrier_id, delivery_d) -> the delivered O_ID of districts 1..10,
//     comma-separated (0: skipped).
//   tpcc_stock_level(w_id, d_id, threshold) -> d_next_o_id, low_stock.
// Thread-safety: immutable data.
#pragma once

#include <span>

#include "driver/statement.hpp"

namespace tpcc::schema {

[[nodiscard]] std::span<const driver::statement> postgres_procedures() noexcept;
[[nodiscard]] std::span<const driver::statement> mysql_procedures() noexcept;

}  // namespace tpcc::schema
