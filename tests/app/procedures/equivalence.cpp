// SPDX-License-Identifier: Apache-2.0
// One fixed sequence of transactions, client-side or as stored-procedure calls, and the
// database's digests (equivalence.hpp).
#include "equivalence.hpp"

#include <array>
#include <chrono>
#include <cstdio>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "driver/open.hpp"
#include "random/rng.hpp"
#include "schema/procedures.hpp"
#include "schema/schema.hpp"
#include "shoal/sync_wait.hpp"
#include "support/running_pool.hpp"
#include "txn/generate.hpp"
#include "txn/procedures.hpp"

namespace procedures_test {
namespace {

namespace driver = tpcc::driver;
namespace schema = tpcc::schema;
namespace txn = tpcc::txn;

// Lines are written with a stream: g++ 12 sees a bogus -Wrestrict in chains of string + (GCC
// bug 105329).
std::string money(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", v);
  return text;
}

void head(std::ostringstream& s, const char* type, const driver::outcome& o) {
  s << type << ' ' << driver::to_string(o.kind);
}

void address_text(std::ostringstream& s, const txn::address& a) {
  s << ' ' << a.street_1 << '/' << a.street_2 << '/' << a.city << '/' << a.state << '/' << a.zip;
}

std::string render(const txn::new_order_output& out, const driver::outcome& o) {
  std::ostringstream s;
  head(s, "New-Order", o);
  if (!o.ok() && o.kind != driver::outcome_kind::rolled_back) return s.str();
  s << " o_id " << out.o_id << ' ' << out.c_last << ' ' << out.c_credit;
  if (out.item_not_valid) {
    s << " item not valid";
    return s.str();
  }
  s << " discount " << money(out.c_discount * 100) << " taxes " << money(out.w_tax * 100) << ' '
    << money(out.d_tax * 100) << " total " << money(out.total_amount) << " lines";
  for (const txn::new_order_line_output& l : out.lines) {
    s << " [" << l.supply_w_id << ' ' << l.i_id << ' ' << l.i_name << ' ' << l.quantity << ' '
      << l.s_quantity << ' ' << l.brand_generic << ' ' << money(l.i_price) << ' '
      << money(l.ol_amount) << ']';
  }
  return s.str();
}

std::string render(const txn::payment_output& out, const driver::outcome& o) {
  std::ostringstream s;
  head(s, "Payment", o);
  if (!o.ok()) return s.str();
  s << " c_id " << out.c_id << ' ' << out.c_first << ' ' << out.c_middle << ' ' << out.c_last;
  address_text(s, out.customer);
  s << ' ' << out.c_phone << ' ' << out.c_since << ' ' << out.c_credit << ' '
    << money(out.c_credit_lim) << ' ' << money(out.c_discount * 100) << " balance "
    << money(out.c_balance) << " amount " << money(out.h_amount) << " w";
  address_text(s, out.warehouse);
  s << " d";
  address_text(s, out.district);
  s << " data " << out.c_data;
  return s.str();
}

std::string render(const txn::order_status_output& out, const driver::outcome& o) {
  std::ostringstream s;
  head(s, "Order-Status", o);
  if (!o.ok()) return s.str();
  s << " c_id " << out.c_id << ' ' << out.c_first << ' ' << out.c_middle << ' ' << out.c_last
    << " balance " << money(out.c_balance) << " o_id " << out.o_id
    << (out.o_entry_d.empty() ? " undated" : " dated") << " carrier ";
  if (out.o_carrier_id) {
    s << *out.o_carrier_id;
  } else {
    s << "none";
  }
  s << " lines";
  for (const txn::order_status_line& l : out.lines) {
    s << " [" << l.supply_w_id << ' ' << l.i_id << ' ' << l.quantity << ' ' << money(l.amount)
      << (l.delivery_d.empty() ? " undelivered]" : " delivered]");
  }
  return s.str();
}

std::string render(const txn::delivery_output& out, const driver::outcome& o) {
  std::ostringstream s;
  head(s, "Delivery", o);
  if (!o.ok()) return s.str();
  for (const std::int64_t id : out.delivered_o_id) s << ' ' << id;
  s << " skipped " << out.skipped;
  return s.str();
}

std::string render(const txn::stock_level_output& out, const driver::outcome& o) {
  std::ostringstream s;
  head(s, "Stock-Level", o);
  if (!o.ok()) return s.str();
  s << " next " << out.next_o_id << " low " << out.low_stock;
  return s.str();
}

// A transaction body: client-side (txn::run_*) or a procedure call (txn::call_*).
template <class Input, class Output>
using runner = shoal::task<driver::outcome> (*)(driver::session&, const Input&, Output&);

// One transaction, its line.
template <class Input, class Output>
shoal::task<std::string> run_one(driver::session& s, const keyed& in, runner<Input, Output> run) {
  Output out;
  const driver::outcome o = co_await run(s, std::get<Input>(in), out);
  co_return render(out, o);
}

shoal::task<std::string> run_keyed(driver::session& s, const keyed& in, bool procedures) {
  switch (in.index()) {
    case 0:
      return run_one(s, in, procedures ? &txn::call_new_order : &txn::run_new_order);
    case 1:
      return run_one(s, in, procedures ? &txn::call_payment : &txn::run_payment);
    case 2:
      return run_one(s, in, procedures ? &txn::call_order_status : &txn::run_order_status);
    case 3:
      return run_one(s, in, procedures ? &txn::call_delivery : &txn::run_delivery);
    default:
      return run_one(s, in, procedures ? &txn::call_stock_level : &txn::run_stock_level);
  }
}

// The 45/43/4/4/4 mix as one draw.
keyed draw_one(tpcc::random::rng& r, const txn::workload_scope& scope) {
  const std::int64_t card = r.uniform(1, 100);
  if (card <= 45) return txn::make_new_order(r, scope, 1);
  if (card <= 88) return txn::make_payment(r, scope, 1);
  if (card <= 92) return txn::make_order_status(r, scope, 1);
  if (card <= 96) return txn::make_delivery(r, 1);
  return txn::make_stock_level(r, 1, r.uniform(1, 10));
}

// The transactions' own dates (the client's clock) count as set or not; every other column
// as its text.
bool client_dated(std::string_view column) {
  return column == "o_entry_d" || column == "h_date" || column == "ol_delivery_d";
}

std::string row_text(const schema::table& t, bool mysql) {
  std::string out = "concat_ws('|'";
  for (const std::string_view c : t.columns) {
    const std::string col(c);
    if (client_dated(c)) {
      out += ", CASE WHEN " + col + " IS NULL THEN 'null' ELSE 'set' END";
    } else {
      out += mysql ? ", coalesce(" + col + ", '~')" : ", coalesce(" + col + "::text, '~')";
    }
  }
  return out + ")";
}

struct digest_statements {
  std::vector<std::string> names, pg, my;
  std::vector<driver::statement> statements;
};

const digest_statements& digests() {
  static const digest_statements all = [] {
    digest_statements d;
    for (const schema::table& t : schema::tables()) {
      const std::string name(t.name);
      d.names.push_back("procedures_test_digest_" + name);
      d.pg.push_back("SELECT count(*), coalesce(sum(('x' || substr(md5(" + row_text(t, false) +
                     "), 1, 8))::bit(32)::bigint), 0)::bigint FROM " + name);
      d.my.push_back("SELECT count(*), coalesce(sum(crc32(" + row_text(t, true) + ")), 0) FROM " +
                     name);
    }
    for (std::size_t i = 0; i < d.names.size(); ++i) {
      d.statements.push_back(driver::statement{d.names[i], d.pg[i], d.my[i]});
    }
    return d;
  }();
  return all;
}

std::string digest_line(std::string_view table, const driver::statement_result& r) {
  if (!r.ok() || r.rows.size() != 1) {
    throw std::runtime_error(std::string(table) + ": " + r.status.message);
  }
  return std::string(table) + ": rows " + std::to_string(r.rows[0].int_at(0)) + ", digest " +
         std::to_string(r.rows[0].int_at(1));
}

// One connection to `target` (built outside a coroutine: g++ 12 and aggregate temporaries).
driver::database_options one_connection(const std::string& target) {
  return driver::database_options{.target = target, .connections = 1};
}

shoal::task<std::unique_ptr<driver::database>> open_target(const std::string& target) {
  driver::open_result opened = co_await driver::open_database(one_connection(target));
  if (auto* failure = std::get_if<driver::outcome>(&opened)) {
    throw std::runtime_error("open: " + failure->message);
  }
  co_return std::move(std::get<std::unique_ptr<driver::database>>(opened));
}

// One database: the sequence (the procedures made first when asked), then its digests.
shoal::task<void> run_on(shoal::thread_pool& pool, std::string target, driver::engine kind,
                         const std::vector<keyed>& inputs, bool procedures,
                         std::vector<std::string>& lines, std::vector<std::string>& tables) {
  co_await pool.schedule_on(0);
  std::unique_ptr<driver::database> db = co_await open_target(target);
  if (procedures) {
    const driver::outcome made = co_await schema::create_procedures(*db, kind);
    if (!made.ok()) throw std::runtime_error("create_procedures: " + made.message);
  }
  lines = co_await run_sequence(*db, inputs, procedures);
  tables = co_await table_digests(*db);
  co_await db->close();
}

}  // namespace

std::string second_warehouse_sql() {
  constexpr std::array<std::pair<std::string_view, std::string_view>, 4> keyed_by{
      {{"warehouse", "w_id"}, {"district", "d_w_id"}, {"customer", "c_w_id"}, {"stock", "s_w_id"}}};
  std::string sql;
  for (const auto& [name, key] : keyed_by) {
    const schema::table& t = *schema::find_table(name);
    std::string columns, values;
    for (const std::string_view c : t.columns) {
      columns += (columns.empty() ? "" : ", ") + std::string(c);
      values += (values.empty() ? "" : ", ") + (c == key ? std::string("2") : std::string(c));
    }
    sql += "INSERT INTO " + std::string(name) + " (" + columns + ") SELECT " + values + " FROM " +
           std::string(name) + " WHERE " + std::string(key) + " = 1;\n";
  }
  return sql;
}

namespace {

const driver::statement session_questions{"tpcc_test_questions",
                                          "SHOW SESSION STATUS LIKE 'Questions'"};

// The statements the server has counted on this session, the SHOW itself included, read in a
// transaction of its own (its COMMIT counted after).
shoal::task<std::int64_t> questions_of(driver::session& s) {
  co_await s.begin();
  const driver::statement_result r = co_await s.execute(session_questions, {});
  co_await s.commit();
  if (!r.ok() || r.rows.size() != 1) throw std::runtime_error("questions: " + r.status.message);
  co_return std::stoll(r.rows[0].text_at(1));
}

shoal::task<void> count_delivery(shoal::thread_pool& pool, std::string target,
                                 txn::delivery_output& out, std::int64_t& statements) {
  co_await pool.schedule_on(0);
  std::unique_ptr<driver::database> db = co_await open_target(target);
  {
    driver::lease l = co_await db->acquire();
    if (!l) throw std::runtime_error("acquire: " + l.status().message);
    const std::int64_t before = co_await questions_of(*l);
    const driver::outcome o = co_await txn::run_delivery(*l, txn::delivery_input{1, 7}, out);
    if (!o.ok()) throw std::runtime_error("delivery: " + o.message);
    statements = co_await questions_of(*l) - before - 2;  // the first COMMIT, the SHOW
  }
  co_await db->close();
}

}  // namespace

std::int64_t delivery_statements(const std::string& db, txn::delivery_output& out) {
  shoal::testing::running_pool workers(1);
  std::int64_t statements = 0;
  shoal::sync_wait(count_delivery(workers.pool, db, out, statements));
  return statements;
}

both_runs run_both(const std::string& client_db, const std::string& procedures_db,
                   driver::engine kind, const std::vector<keyed>& inputs) {
  shoal::testing::running_pool workers(1);
  both_runs out;
  shoal::sync_wait(
      run_on(workers.pool, client_db, kind, inputs, false, out.client, out.client_tables));
  shoal::sync_wait(run_on(workers.pool, procedures_db, kind, inputs, true, out.procedures,
                          out.procedure_tables));
  return out;
}

namespace {

// 3 attempts, 1 ms apart (built outside a coroutine: g++ 12 and aggregate temporaries there).
txn::retry_policy three_quick_attempts() {
  return txn::retry_policy{.max_attempts = 3,
                           .first_backoff = std::chrono::milliseconds(1),
                           .max_backoff = std::chrono::milliseconds(1)};
}

// Customer 7 of warehouse 1, district 1 pays 12.50.
txn::payment_input payment_of_customer_7() {
  txn::payment_input in;
  in.w_id = in.c_w_id = 1;
  in.d_id = in.c_d_id = 1;
  in.customer.c_id = 7;
  in.h_amount = 12.5;
  return in;
}

// One Payment by number through the retry wrapper, with `run` as its body.
shoal::task<txn::attempt_report> pay_once(
    driver::database& db,
    shoal::task<driver::outcome> (*run)(driver::session&, const txn::payment_input&,
                                        txn::payment_output&)) {
  const txn::payment_input in = payment_of_customer_7();
  txn::payment_output out;
  co_return co_await txn::execute(
      db, [&](driver::session& s) { return run(s, in, out); }, three_quick_attempts());
}

shoal::task<void> pay_both(shoal::thread_pool& pool, std::string target, driver::engine kind,
                           retried_payments& out) {
  co_await pool.schedule_on(0);
  std::unique_ptr<driver::database> db = co_await open_target(target);
  const driver::outcome made = co_await schema::create_procedures(*db, kind);
  if (!made.ok()) throw std::runtime_error("create_procedures: " + made.message);
  out.client = co_await pay_once(*db, &txn::run_payment);
  out.procedures = co_await pay_once(*db, &txn::call_payment);
  co_await db->close();
}

}  // namespace

retried_payments pay_with_retries(const std::string& db, driver::engine kind) {
  shoal::testing::running_pool workers(1);
  retried_payments out;
  shoal::sync_wait(pay_both(workers.pool, db, kind, out));
  return out;
}

std::vector<keyed> draw_sequence(std::uint64_t seed, int count, std::int64_t warehouses) {
  tpcc::random::rng r(seed);
  const txn::workload_scope scope{.warehouses = warehouses, .constants = {}};
  std::vector<keyed> out;
  for (int i = 0; i < count; ++i) out.push_back(draw_one(r, scope));
  txn::new_order_input rollback = txn::make_new_order(r, scope, 1);
  rollback.rollback = true;
  rollback.lines.back().i_id = txn::unused_item_id;
  out.insert(out.begin() + count / 2, rollback);
  txn::payment_input nobody = txn::make_payment(r, scope, 1);
  nobody.customer = txn::customer_choice{.by_last_name = true, .c_id = 0, .c_last = "NOBODY"};
  out.insert(out.begin() + count / 3, nobody);
  txn::order_status_input unknown = txn::make_order_status(r, scope, 1);
  unknown.customer = nobody.customer;
  out.insert(out.begin() + count / 4, unknown);
  // An item ordered on two lines of one order: its stock updated twice, each line showing its
  // own update's S_QUANTITY (on MySQL replayed by the client from one locked read, new_order.cpp).
  txn::new_order_input twice = txn::make_new_order(r, scope, 1);
  twice.lines[1].i_id = twice.lines[0].i_id;
  twice.lines[1].supply_w_id = twice.lines[0].supply_w_id;
  out.insert(out.begin() + count / 5, twice);
  return out;
}

shoal::task<std::vector<std::string>> run_sequence(driver::database& db,
                                                   const std::vector<keyed>& inputs,
                                                   bool procedures) {
  std::vector<std::string> lines;
  driver::lease l = co_await db.acquire();
  if (!l) throw std::runtime_error("acquire: " + l.status().message);
  for (const keyed& in : inputs) lines.push_back(co_await run_keyed(*l, in, procedures));
  co_return lines;
}

shoal::task<std::vector<std::string>> table_digests(driver::database& db) {
  std::vector<std::string> lines;
  driver::lease l = co_await db.acquire();
  if (!l) throw std::runtime_error("acquire: " + l.status().message);
  const digest_statements& d = digests();
  for (std::size_t i = 0; i < d.statements.size(); ++i) {
    co_await l->begin();
    const driver::statement_result r =
        co_await l->execute(d.statements[i], std::vector<driver::value>());
    co_await l->commit();
    lines.push_back(digest_line(schema::tables()[i].name, r));
  }
  co_return lines;
}

}  // namespace procedures_test
