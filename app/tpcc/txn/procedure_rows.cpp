// SPDX-License-Identifier: Apache-2.0
// A stored procedure's row read into a transaction's output (procedure_rows.hpp).
#include "txn/procedure_rows.hpp"

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "txn/packed.hpp"

namespace tpcc::txn {
namespace {

// One New-Order line "ol_number,i_name,i_price,s_quantity,B|G,ol_amount" into out.lines.
void take_order_line(const new_order_input& in, std::string_view text, new_order_output& out) {
  const std::vector<std::string_view> f = split(text, ',');
  if (f.size() != 6) throw std::logic_error("a New-Order line of the procedure has no 6 fields");
  const auto at = static_cast<std::size_t>(int_field(f[0]) - 1);
  if (at >= in.lines.size()) throw std::logic_error("a New-Order line number out of range");
  new_order_line_output& l = out.lines[at];
  l.supply_w_id = in.lines[at].supply_w_id;
  l.i_id = in.lines[at].i_id;
  l.quantity = in.lines[at].quantity;
  l.i_name = std::string(f[1]);
  l.i_price = number_field(f[2]);
  l.s_quantity = int_field(f[3]);
  l.brand_generic = f[4] == "B" ? 'B' : 'G';
  l.ol_amount = number_field(f[5]);
}

// The word after `key` in `text` (up to a space or the end).
std::string_view word_after(std::string_view text, std::string_view key) {
  const std::size_t at = text.find(key);
  if (at == std::string_view::npos) return {};
  text.remove_prefix(at + key.size());
  return text.substr(0, text.find_first_of(" \n"));
}

// One Order-Status line "supply_w_id,i_id,quantity,amount,delivery_d".
order_status_line status_line(std::string_view text) {
  const std::vector<std::string_view> f = split(text, ',');
  if (f.size() != 5)
    throw std::logic_error("an Order-Status line of the procedure has no 5 fields");
  order_status_line l;
  l.supply_w_id = int_field(f[0]);
  l.i_id = int_field(f[1]);
  l.quantity = int_field(f[2]);
  l.amount = number_field(f[3]);
  l.delivery_d = std::string(f[4]);
  return l;
}

// What both New-Order outcomes display of the input.
void order_keys(const new_order_input& in, new_order_output& out) {
  out.w_id = in.w_id;
  out.d_id = in.d_id;
  out.c_id = in.c_id;
}

}  // namespace

void take_new_order_row(const new_order_input& in, const driver::row& r, new_order_output& out) {
  order_keys(in, out);
  out.o_id = r.int_at(0);
  out.d_tax = r.number_at(1);
  out.w_tax = r.number_at(2);
  out.c_discount = r.number_at(3);
  out.c_last = r.text_at(4);
  out.c_credit = r.text_at(5);
  out.total_amount = r.number_at(6);
  out.o_ol_cnt = static_cast<std::int64_t>(in.lines.size());
  out.lines.assign(in.lines.size(), new_order_line_output{});
  for (const std::string_view line : split(r.text_at(7), ';')) take_order_line(in, line, out);
}

driver::outcome rolled_back_order(const new_order_input& in, const driver::outcome& why,
                                  new_order_output& out) {
  order_keys(in, out);
  const std::string_view o_id = word_after(why.message, "o_id=");
  if (!o_id.empty()) out.o_id = int_field(o_id);
  out.c_credit = std::string(word_after(why.message, "c_credit="));
  out.c_last = std::string(word_after(why.message, "c_last="));
  out.item_not_valid = true;
  return driver::outcome::make(driver::outcome_kind::rolled_back, "", "Item number is not valid");
}

void take_payment_row(const driver::row& r, payment_output& out) {
  out.warehouse = address_at(r, 0);
  out.district = address_at(r, 5);
  out.c_id = r.int_at(10);
  customer_at(r, 11, out);
}

void take_order_status_row(const driver::row& r, order_status_output& out) {
  out.c_id = r.int_at(0);
  out.c_first = r.text_at(1);
  out.c_middle = r.text_at(2);
  out.c_last = r.text_at(3);
  out.c_balance = r.number_at(4);
  out.lines.clear();
  if (r.null_at(5)) return;  // no order (impossible once populated: clause 4.3.3.1)
  out.o_id = r.int_at(5);
  out.o_entry_d = r.text_at(6);
  if (!r.null_at(7)) out.o_carrier_id = r.int_at(7);
  for (const std::string_view line : split(r.text_at(8), ';')) {
    out.lines.push_back(status_line(line));
  }
}

void take_delivery_row(const driver::row& r, delivery_output& out) {
  const std::vector<std::string_view> ids = split(r.text_at(0), ',');
  if (ids.size() != districts_per_warehouse) {
    throw std::logic_error("the Delivery procedure returned no 10 order numbers");
  }
  out.skipped = 0;
  for (std::size_t i = 0; i < districts_per_warehouse; ++i) {
    out.delivered_o_id[i] = int_field(ids[i]);
    if (out.delivered_o_id[i] == 0) ++out.skipped;
  }
}

void take_stock_level_row(const driver::row& r, stock_level_output& out) {
  out.next_o_id = r.int_at(0);
  out.low_stock = r.int_at(1);
}

}  // namespace tpcc::txn
