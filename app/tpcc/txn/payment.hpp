// SPDX-License-Identifier: Apache-2.0
// app/tpcc/txn/payment.hpp: the Payment transaction (clause 2.5).
//
// What: `run_payment` records a customer's payment (clause 2.5.2.2) from begin() to commit():
// warehouse and district year-to-date, the customer's balance, year-to-date payment and
// payment count, the BC-credit C_DATA rule ("C_ID C_D_ID C_W_ID D_ID W_ID H_AMOUNT |" put in
// front, the result cut to 500 characters), and a HISTORY row whose H_DATA is W_NAME, four
// spaces and D_NAME. The customer is chosen by number, or by last name (by_last_name.hpp). It
// fills what the terminal displays (clause 2.5.3.3).
//
// Round trips (PostgreSQL pipelines them, session.hpp):
//   by number: 1. BEGIN + warehouse, district and customer updates (UPDATE ... RETURNING what
//              is displayed) + the HISTORY insert + COMMIT.
//   by name:   2. BEGIN + warehouse and district updates + customers by name; then the
//              customer update + the HISTORY insert + COMMIT.
// A customer that does not exist fails the HISTORY insert (its H_W_ID comes from a join with
// the customer, and is NOT NULL), so the transaction rolls back instead of committing a payment
// to nobody.
//
// Awaiting run_payment(s, in, out):
//   Result: ok (committed); retryable, connection_lost or failed from the first statement that
//           did not succeed, after a rollback (none when the connection is lost); failed when no
//           customer has the last name. `out` is meaningful only when ok.
//   Errors: std::bad_alloc only; std::logic_error on an unexpected column type (schema bug).
//   Cancellation: the session's calls inherit the chain's stop token (session.hpp).
//   Resumes on: the executor it was awaited on.
//   Thread-safety: one coroutine at a time per session; `in` and `out` must outlive the await.
#pragma once

#include <cstdint>
#include <string>

#include "driver/outcome.hpp"
#include "driver/session.hpp"
#include "driver/value.hpp"
#include "shoal/task.hpp"
#include "txn/inputs.hpp"

namespace tpcc::txn {

struct address {
  std::string street_1;
  std::string street_2;
  std::string city;
  std::string state;
  std::string zip;
};

struct payment_output {
  std::int64_t w_id = 0;
  std::int64_t d_id = 0;
  std::int64_t c_id = 0;
  std::int64_t c_d_id = 0;
  std::int64_t c_w_id = 0;
  double h_amount = 0;
  std::string h_date;
  address warehouse;
  address district;
  std::string c_first;
  std::string c_middle;
  std::string c_last;
  address customer;
  std::string c_phone;
  std::string c_since;
  std::string c_credit;
  double c_credit_lim = 0;
  double c_discount = 0;
  double c_balance = 0;  // after this payment
  std::string c_data;    // the first 200 characters of C_DATA, for BC customers only
};

// "C_ID C_D_ID C_W_ID D_ID W_ID H_AMOUNT |", the text a BC customer's C_DATA gains (clause
// 2.5.2.2).
[[nodiscard]] std::string bc_prefix(const payment_input& in, std::int64_t c_id);
// The keys and amount of `in` and the payment's date `now` into `out` (C_ID as keyed: 0 when
// by name, until the customer is chosen).
void payment_keys(const payment_input& in, const std::string& now, payment_output& out);
// The customer's fields from column `first` of `r`: C_FIRST, C_MIDDLE, C_LAST, the address (5),
// C_PHONE, C_SINCE, C_CREDIT, C_CREDIT_LIM, C_DISCOUNT, C_BALANCE, then the first 200
// characters of C_DATA (kept for BC customers only, clause 2.5.3.3).
void customer_at(const driver::row& r, std::size_t first, payment_output& out);
// The five address columns of `r` from column `first` (street_1, street_2, city, state, zip).
[[nodiscard]] address address_at(const driver::row& r, std::size_t first);

shoal::task<driver::outcome> run_payment(driver::session& s, const payment_input& in,
                                         payment_output& out);

}  // namespace tpcc::txn
