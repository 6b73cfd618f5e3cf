// SPDX-License-Identifier: Apache-2.0
// The PL/pgSQL functions of --procedures (procedure_texts.hpp): the statements of txn/ moved
// into the server, one function per transaction type, each returning what its terminal displays
// as OUT parameters (one row). Lines are packed in a text column (procedure_texts.hpp says how).
// On Citus every statement names the warehouse key and none has a CASE on a parameter, so each
// is routed from the coordinator as the client-side statement is (docs/tpcc/procedures.md).
#include "schema/procedure_texts.hpp"

#include <array>

namespace tpcc::schema {
namespace {

constexpr std::array<driver::statement, 5> functions{{
    {"tpcc_proc_create_new_order",
     R"sql(CREATE OR REPLACE FUNCTION tpcc_new_order(p_w_id integer, p_d_id integer, p_c_id integer,
    p_ol_numbers text, p_items text, p_supply text, p_quantities text, p_entry_d text,
    OUT r_o_id integer, OUT r_d_tax numeric, OUT r_w_tax numeric, OUT r_c_discount numeric,
    OUT r_c_last varchar, OUT r_c_credit char(2), OUT r_total numeric, OUT r_lines text)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_numbers integer[] := string_to_array(p_ol_numbers, ',')::integer[];
  v_items integer[] := string_to_array(p_items, ',')::integer[];
  v_supply integer[] := string_to_array(p_supply, ',')::integer[];
  v_quantities integer[] := string_to_array(p_quantities, ',')::integer[];
  v_count integer := cardinality(v_items);
  v_all_local integer := 1;
  v_invalid boolean := false;
  v_remote integer;
  v_price numeric;
  v_name varchar;
  v_i_data varchar;
  v_s_quantity integer;
  v_s_data varchar;
  v_dists text[];
  v_amounts numeric[] := '{}';
  v_dist_info text[] := '{}';
  v_sum numeric := 0;
BEGIN
  UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w_id AND d_id = p_d_id
    RETURNING d_next_o_id - 1, d_tax INTO r_o_id, r_d_tax;
  IF NOT FOUND THEN RAISE EXCEPTION 'district: expected one row, found 0'; END IF;
  SELECT w_tax INTO r_w_tax FROM warehouse WHERE w_id = p_w_id;
  IF NOT FOUND THEN RAISE EXCEPTION 'warehouse: expected one row, found 0'; END IF;
  SELECT c_discount, c_last, c_credit INTO r_c_discount, r_c_last, r_c_credit FROM customer
    WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = p_c_id;
  IF NOT FOUND THEN RAISE EXCEPTION 'customer: expected one row, found 0'; END IF;
  r_lines := '';
  FOR k IN 1 .. v_count LOOP
    v_remote := CASE WHEN v_supply[k] = p_w_id THEN 0 ELSE 1 END;
    IF v_remote = 1 THEN v_all_local := 0; END IF;
    SELECT i_price, i_name, i_data INTO v_price, v_name, v_i_data FROM item WHERE i_id = v_items[k];
    IF NOT FOUND THEN v_invalid := true; END IF;
    UPDATE stock SET s_quantity = CASE WHEN s_quantity >= v_quantities[k] + 10
        THEN s_quantity - v_quantities[k] ELSE s_quantity - v_quantities[k] + 91 END,
      s_ytd = s_ytd + v_quantities[k], s_order_cnt = s_order_cnt + 1,
      s_remote_cnt = s_remote_cnt + v_remote
      WHERE s_w_id = v_supply[k] AND s_i_id = v_items[k]
      RETURNING s_quantity, s_data, ARRAY[s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05,
        s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10]
      INTO v_s_quantity, v_s_data, v_dists;
    CONTINUE WHEN v_invalid;
    IF NOT FOUND THEN RAISE EXCEPTION 'stock: expected one row, found 0'; END IF;
    v_amounts[k] := v_quantities[k] * v_price;
    v_dist_info[k] := v_dists[p_d_id];
    v_sum := v_sum + v_amounts[k];
    r_lines := r_lines || CASE WHEN k = 1 THEN '' ELSE ';' END || concat_ws(',', v_numbers[k],
      v_name, v_price, v_s_quantity, CASE WHEN strpos(v_i_data, 'ORIGINAL') > 0
        AND strpos(v_s_data, 'ORIGINAL') > 0 THEN 'B' ELSE 'G' END, v_amounts[k]);
  END LOOP;
  IF v_invalid THEN
    RAISE EXCEPTION USING ERRCODE = 'TPCRB', MESSAGE = format(
      'Item number is not valid: o_id=%s c_credit=%s c_last=%s', r_o_id, r_c_credit, r_c_last);
  END IF;
  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt,
    o_all_local) VALUES (r_o_id, p_d_id, p_w_id, p_c_id, p_entry_d::timestamp, NULL, v_count,
    v_all_local);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (r_o_id, p_d_id, p_w_id);
  FOR k IN 1 .. v_count LOOP
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
      ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (r_o_id, p_d_id, p_w_id,
      v_numbers[k], v_items[k], v_supply[k], NULL, v_quantities[k], v_amounts[k], v_dist_info[k]);
  END LOOP;
  r_total := v_sum * (1 - r_c_discount) * (1 + r_w_tax + r_d_tax);
END
$fn$)sql"},
    {"tpcc_proc_create_payment",
     R"sql(CREATE OR REPLACE FUNCTION tpcc_payment(p_w_id integer, p_d_id integer, p_c_w_id integer,
    p_c_d_id integer, p_c_id integer, p_c_last text, p_by_name integer, p_amount numeric,
    p_bc_tail text, p_h_date text,
    OUT r_w_street_1 varchar, OUT r_w_street_2 varchar, OUT r_w_city varchar,
    OUT r_w_state char(2), OUT r_w_zip char(9),
    OUT r_d_street_1 varchar, OUT r_d_street_2 varchar, OUT r_d_city varchar,
    OUT r_d_state char(2), OUT r_d_zip char(9),
    OUT r_c_id integer, OUT r_c_first varchar, OUT r_c_middle char(2), OUT r_c_last varchar,
    OUT r_c_street_1 varchar, OUT r_c_street_2 varchar, OUT r_c_city varchar,
    OUT r_c_state char(2), OUT r_c_zip char(9), OUT r_c_phone char(16), OUT r_c_since timestamp,
    OUT r_c_credit char(2), OUT r_c_credit_lim numeric, OUT r_c_discount numeric,
    OUT r_c_balance numeric, OUT r_c_data varchar)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_w_name varchar;
  v_d_name varchar;
  v_ids integer[];
BEGIN
  UPDATE warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w_id
    RETURNING w_name, w_street_1, w_street_2, w_city, w_state, w_zip
    INTO v_w_name, r_w_street_1, r_w_street_2, r_w_city, r_w_state, r_w_zip;
  IF NOT FOUND THEN RAISE EXCEPTION 'warehouse: expected one row, found 0'; END IF;
  UPDATE district SET d_ytd = d_ytd + p_amount WHERE d_w_id = p_w_id AND d_id = p_d_id
    RETURNING d_name, d_street_1, d_street_2, d_city, d_state, d_zip
    INTO v_d_name, r_d_street_1, r_d_street_2, r_d_city, r_d_state, r_d_zip;
  IF NOT FOUND THEN RAISE EXCEPTION 'district: expected one row, found 0'; END IF;
  r_c_id := p_c_id;
  IF p_by_name <> 0 THEN
    SELECT array_agg(c_id ORDER BY c_first) INTO v_ids FROM customer
      WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_last = p_c_last;
    IF v_ids IS NULL THEN RAISE EXCEPTION 'no customer named %', p_c_last; END IF;
    r_c_id := v_ids[(cardinality(v_ids) + 1) / 2];
  END IF;
  UPDATE customer SET c_balance = c_balance - p_amount,
    c_ytd_payment = c_ytd_payment + p_amount, c_payment_cnt = c_payment_cnt + 1,
    c_data = CASE WHEN c_credit = 'BC' THEN substr(r_c_id::text || p_bc_tail || c_data, 1, 500)
      ELSE c_data END
    WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = r_c_id
    RETURNING c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip,
      c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, substr(c_data, 1, 200)
    INTO r_c_first, r_c_middle, r_c_last, r_c_street_1, r_c_street_2, r_c_city, r_c_state,
      r_c_zip, r_c_phone, r_c_since, r_c_credit, r_c_credit_lim, r_c_discount, r_c_balance,
      r_c_data;
  IF NOT FOUND THEN RAISE EXCEPTION 'customer: expected one row, found 0'; END IF;
  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
    VALUES (r_c_id, p_c_d_id, p_c_w_id, p_d_id, p_w_id, p_h_date::timestamp, p_amount,
      v_w_name || '    ' || v_d_name);
END
$fn$)sql"},
    {"tpcc_proc_create_order_status",
     R"sql(CREATE OR REPLACE FUNCTION tpcc_order_status(p_w_id integer, p_d_id integer, p_c_id integer,
    p_c_last text, p_by_name integer,
    OUT r_c_id integer, OUT r_c_first varchar, OUT r_c_middle char(2), OUT r_c_last varchar,
    OUT r_c_balance numeric, OUT r_o_id integer, OUT r_o_entry_d timestamp,
    OUT r_o_carrier_id integer, OUT r_lines text)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_ids integer[];
BEGIN
  r_c_id := p_c_id;
  IF p_by_name <> 0 THEN
    SELECT array_agg(c_id ORDER BY c_first) INTO v_ids FROM customer
      WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last;
    IF v_ids IS NULL THEN RAISE EXCEPTION 'no customer named %', p_c_last; END IF;
    r_c_id := v_ids[(cardinality(v_ids) + 1) / 2];
  END IF;
  SELECT c_first, c_middle, c_last, c_balance INTO r_c_first, r_c_middle, r_c_last, r_c_balance
    FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = r_c_id;
  IF NOT FOUND THEN RAISE EXCEPTION 'customer: expected one row, found 0'; END IF;
  SELECT o_id, o_entry_d, o_carrier_id, string_agg(concat_ws(',', ol_supply_w_id, ol_i_id,
      ol_quantity, ol_amount, coalesce(ol_delivery_d::text, '')), ';' ORDER BY ol_number)
    INTO r_o_id, r_o_entry_d, r_o_carrier_id, r_lines
    FROM orders, order_line WHERE o_w_id = p_w_id AND o_d_id = p_d_id AND o_id = (SELECT
      max(o_id) FROM orders WHERE o_w_id = p_w_id AND o_d_id = p_d_id AND o_c_id = r_c_id)
      AND ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
    GROUP BY o_id, o_entry_d, o_carrier_id;
END
$fn$)sql"},
    {"tpcc_proc_create_delivery",
     R"sql(CREATE OR REPLACE FUNCTION tpcc_delivery(p_w_id integer, p_carrier_id integer,
    p_delivery_d text, OUT r_o_ids text)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_o_ids integer[] := array_fill(0, ARRAY[10]);
  v_o_id integer;
  v_orders integer;
  v_customers integer;
BEGIN
  FOR d IN 1 .. 10 LOOP
    DELETE FROM new_order WHERE no_w_id = p_w_id AND no_d_id = d AND no_o_id = (SELECT
      min(no_o_id) FROM new_order WHERE no_w_id = p_w_id AND no_d_id = d) RETURNING no_o_id
      INTO v_o_id;
    IF FOUND THEN v_o_ids[d] := v_o_id; END IF;
  END LOOP;
  FOR d IN 1 .. 10 LOOP
    CONTINUE WHEN v_o_ids[d] = 0;
    UPDATE orders SET o_carrier_id = p_carrier_id
      WHERE o_w_id = p_w_id AND o_d_id = d AND o_id = v_o_ids[d];
    GET DIAGNOSTICS v_orders = ROW_COUNT;
    UPDATE order_line SET ol_delivery_d = p_delivery_d::timestamp
      WHERE ol_w_id = p_w_id AND ol_d_id = d AND ol_o_id = v_o_ids[d];
    UPDATE customer SET c_balance = c_balance + (SELECT sum(ol_amount) FROM order_line
        WHERE ol_w_id = p_w_id AND ol_d_id = d AND ol_o_id = v_o_ids[d]),
      c_delivery_cnt = c_delivery_cnt + 1
      WHERE c_w_id = p_w_id AND c_d_id = d AND c_id = (SELECT o_c_id FROM orders
        WHERE o_w_id = p_w_id AND o_d_id = d AND o_id = v_o_ids[d]);
    GET DIAGNOSTICS v_customers = ROW_COUNT;
    IF v_orders <> 1 OR v_customers <> 1 THEN
      RAISE EXCEPTION 'delivery: an undelivered order has no ORDERS or CUSTOMER row';
    END IF;
  END LOOP;
  r_o_ids := array_to_string(v_o_ids, ',');
END
$fn$)sql"},
    {"tpcc_proc_create_stock_level",
     R"sql(CREATE OR REPLACE FUNCTION tpcc_stock_level(p_w_id integer, p_d_id integer,
    p_threshold integer, OUT r_next_o_id integer, OUT r_low_stock bigint)
LANGUAGE plpgsql AS $fn$
BEGIN
  SELECT d_next_o_id INTO r_next_o_id FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
  IF NOT FOUND THEN RAISE EXCEPTION 'district: expected one row, found 0'; END IF;
  SELECT count(DISTINCT s_i_id) INTO r_low_stock FROM order_line, stock, district
    WHERE d_w_id = p_w_id AND d_id = p_d_id AND ol_w_id = p_w_id AND ol_d_id = p_d_id
      AND ol_o_id < d_next_o_id AND ol_o_id >= d_next_o_id - 20
      AND s_w_id = p_w_id AND s_i_id = ol_i_id AND s_quantity < p_threshold;
END
$fn$)sql"},
}};

}  // namespace

std::span<const driver::statement> postgres_procedures() noexcept { return functions; }

}  // namespace tpcc::schema
