// SPDX-License-Identifier: Apache-2.0
// One row of each table, as clause 4.3.3.1 gives it (population.hpp). Each function writes the
// columns in schema.cpp's order and draws only from its own table's stream.
#include <string_view>

#include "loader/population.hpp"
#include "loader/row_writer.hpp"
#include "random/nurand.hpp"
#include "random/strings.hpp"

namespace tpcc::loader {
namespace {

using random::rng;

constexpr int dist_columns = 10;  // S_DIST_01..10

double cents(rng& r, std::int64_t lo, std::int64_t hi) {
  return static_cast<double>(r.uniform(lo, hi)) / 100.0;
}
double rate(rng& r, std::int64_t lo, std::int64_t hi) {
  return static_cast<double>(r.uniform(lo, hi)) / 10000.0;
}

// Clause 4.3.2.2 a-string of [lo..hi] into the next text slot.
void a_text(rng& r, int lo, int hi, row_writer& w) { random::a_string(r, lo, hi, w.text_slot()); }

// 10% of a table's rows: a uniform draw over 1..100.
bool one_in_ten(rng& r) { return r.uniform(1, 100) <= 10; }

}  // namespace

// STREET_1, STREET_2, CITY, STATE, ZIP (clause 4.3.3.1's common address columns).
void population::address(rng& r, row_writer& w) {
  a_text(r, 10, 20, w);
  a_text(r, 10, 20, w);
  a_text(r, 10, 20, w);
  a_text(r, 2, 2, w);
  random::zip_code(r, w.text_slot());
}

void population::item_row(row_writer& w) {
  rng& r = streams_[static_cast<std::size_t>(part::item)];
  w.integer(row_ + 1);                                   // I_ID
  w.integer(r.uniform(1, 10'000));                       // I_IM_ID
  a_text(r, 14, 24, w);                                  // I_NAME
  w.number(cents(r, 100, 10'000));                       // I_PRICE 1.00..100.00
  random::data_with_original(r, 26, 50, w.text_slot());  // I_DATA
}

void population::warehouse_row(row_writer& w) {
  rng& r = streams_[static_cast<std::size_t>(part::warehouse)];
  w.integer(w_id_);
  a_text(r, 6, 10, w);  // W_NAME
  address(r, w);
  w.number(rate(r, 0, 2'000));  // W_TAX 0.0000..0.2000
  w.number(300'000.00);         // W_YTD
}

void population::district_row(row_writer& w) {
  rng& r = streams_[static_cast<std::size_t>(part::district)];
  w.integer(row_ + 1);  // D_ID
  w.integer(w_id_);
  a_text(r, 6, 10, w);  // D_NAME
  address(r, w);
  w.number(rate(r, 0, 2'000));         // D_TAX
  w.number(30'000.00);                 // D_YTD
  w.integer(orders_per_district + 1);  // D_NEXT_O_ID 3001
}

void population::customer_row(row_writer& w) {
  rng& r = streams_[static_cast<std::size_t>(part::customer)];
  const std::int64_t c_id = row_ % customers_per_district + 1;
  w.integer(c_id);
  w.integer(row_ / customers_per_district + 1);  // C_D_ID
  w.integer(w_id_);
  a_text(r, 8, 16, w);  // C_FIRST
  w.text("OE");         // C_MIDDLE
  // C_LAST: the first 1,000 customers take 0..999 in order, the rest NURand(255, 0, 999).
  const std::int64_t name =
      c_id <= 1'000 ? c_id - 1 : random::nurand(r, 255, 0, 999, constants_.c_last);
  random::last_name(name, w.text_slot());
  address(r, w);
  random::n_string(r, 16, 16, w.text_slot());  // C_PHONE
  w.text(load_time_);                          // C_SINCE
  w.text(one_in_ten(r) ? "BC" : "GC");         // C_CREDIT
  w.number(50'000.00);                         // C_CREDIT_LIM
  w.number(rate(r, 0, 5'000));                 // C_DISCOUNT 0.0000..0.5000
  w.number(-10.00);                            // C_BALANCE
  w.number(10.00);                             // C_YTD_PAYMENT
  w.integer(1);                                // C_PAYMENT_CNT
  w.integer(0);                                // C_DELIVERY_CNT
  a_text(r, 300, 500, w);                      // C_DATA
}

void population::history_row(row_writer& w) {
  rng& r = streams_[static_cast<std::size_t>(part::history)];
  const std::int64_t d_id = row_ / customers_per_district + 1;
  w.integer(row_ % customers_per_district + 1);  // H_C_ID
  w.integer(d_id);                               // H_C_D_ID
  w.integer(w_id_);                              // H_C_W_ID
  w.integer(d_id);                               // H_D_ID
  w.integer(w_id_);                              // H_W_ID
  w.text(load_time_);                            // H_DATE
  w.number(10.00);                               // H_AMOUNT
  a_text(r, 12, 24, w);                          // H_DATA
}

void population::orders_row(row_writer& w) {
  rng& r = streams_[static_cast<std::size_t>(part::orders)];
  const std::int64_t o_id = row_ % orders_per_district + 1;
  const auto index = static_cast<std::size_t>(row_);
  w.integer(o_id);
  w.integer(row_ / orders_per_district + 1);  // O_D_ID
  w.integer(w_id_);
  w.integer(o_c_id_[index]);  // O_C_ID
  w.text(load_time_);         // O_ENTRY_D
  if (o_id < first_new_order) {
    w.integer(r.uniform(1, 10));  // O_CARRIER_ID
  } else {
    w.null();
  }
  w.integer(ol_cnt_[index]);  // O_OL_CNT
  w.integer(1);               // O_ALL_LOCAL
}

void population::new_order_row(row_writer& w) {
  w.integer(first_new_order + row_ % new_orders_per_district);  // NO_O_ID 2101..3000
  w.integer(row_ / new_orders_per_district + 1);                // NO_D_ID
  w.integer(w_id_);
}

void population::order_line_row(row_writer& w) {
  rng& r = streams_[static_cast<std::size_t>(part::order_line)];
  const auto order = static_cast<std::int64_t>(line_order_);
  const std::int64_t o_id = order % orders_per_district + 1;
  const bool delivered = o_id < first_new_order;
  w.integer(o_id);
  w.integer(order / orders_per_district + 1);  // OL_D_ID
  w.integer(w_id_);
  w.integer(line_number_);              // OL_NUMBER
  w.integer(r.uniform(1, item_count));  // OL_I_ID
  w.integer(w_id_);                     // OL_SUPPLY_W_ID
  if (delivered) {
    w.text(load_time_);  // OL_DELIVERY_D = O_ENTRY_D
  } else {
    w.null();
  }
  w.integer(5);                                       // OL_QUANTITY
  w.number(delivered ? 0.00 : cents(r, 1, 999'999));  // OL_AMOUNT
  a_text(r, 24, 24, w);                               // OL_DIST_INFO
  if (++line_number_ > ol_cnt_[line_order_]) {
    ++line_order_;
    line_number_ = 1;
  }
}

void population::stock_row(row_writer& w) {
  rng& r = streams_[static_cast<std::size_t>(part::stock)];
  w.integer(row_ + 1);  // S_I_ID
  w.integer(w_id_);
  w.integer(r.uniform(10, 100));                                // S_QUANTITY
  for (int i = 0; i < dist_columns; ++i) a_text(r, 24, 24, w);  // S_DIST_01..10
  w.integer(0);                                                 // S_YTD
  w.integer(0);                                                 // S_ORDER_CNT
  w.integer(0);                                                 // S_REMOTE_CNT
  random::data_with_original(r, 26, 50, w.text_slot());         // S_DATA
}

}  // namespace tpcc::loader
