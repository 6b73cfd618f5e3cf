// SPDX-License-Identifier: Apache-2.0
// The MySQL/MariaDB stored procedures of --procedures (procedure_texts.hpp): the MySQL forms of
// the statements of txn/ moved into the server, one procedure per transaction type, each ending
// with one SELECT of what its terminal displays (one row; lines packed in a text column as
// procedure_texts.hpp says). Each CREATE is one statement to the driver (driver/mysql/dialect.hpp
// keeps a CREATE PROCEDURE whole), after a DROP PROCEDURE IF EXISTS (MySQL 8 has no CREATE OR
// REPLACE PROCEDURE).
#include "schema/procedure_texts.hpp"

#include <array>

namespace tpcc::schema {
namespace {

constexpr std::array<driver::statement, 10> procedures{{
    {"tpcc_proc_drop_new_order", "DROP PROCEDURE IF EXISTS tpcc_new_order"},
    {"tpcc_proc_create_new_order",
     R"sql(CREATE PROCEDURE tpcc_new_order(IN p_w_id INT, IN p_d_id INT, IN p_c_id INT,
    IN p_ol_numbers TEXT, IN p_items TEXT, IN p_supply TEXT, IN p_quantities TEXT,
    IN p_entry_d VARCHAR(32))
BEGIN
  DECLARE v_found INT DEFAULT 1;
  DECLARE v_o_id INT;
  DECLARE v_d_tax, v_w_tax, v_c_discount DECIMAL(4,4);
  DECLARE v_c_last VARCHAR(16);
  DECLARE v_c_credit CHAR(2);
  DECLARE v_count INT DEFAULT 1 + LENGTH(p_items) - LENGTH(REPLACE(p_items, ',', ''));
  DECLARE v_all_local INT DEFAULT 1;
  DECLARE v_invalid INT DEFAULT 0;
  DECLARE k INT DEFAULT 1;
  DECLARE v_number, v_item, v_supply, v_quantity, v_remote, v_s_quantity INT;
  DECLARE v_price DECIMAL(5,2);
  DECLARE v_amount DECIMAL(6,2);
  DECLARE v_sum DECIMAL(12,2) DEFAULT 0;
  DECLARE v_name VARCHAR(24);
  DECLARE v_i_data, v_s_data VARCHAR(50);
  DECLARE v_dist CHAR(24);
  DECLARE v_lines, v_amounts, v_dists TEXT DEFAULT '';
  DECLARE v_message VARCHAR(128);
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_found = 0;
  UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w_id AND d_id = p_d_id;
  SELECT d_next_o_id - 1, d_tax INTO v_o_id, v_d_tax FROM district
    WHERE d_w_id = p_w_id AND d_id = p_d_id;
  IF v_found = 0 THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'district: expected one row, found 0';
  END IF;
  SELECT w_tax INTO v_w_tax FROM warehouse WHERE w_id = p_w_id;
  IF v_found = 0 THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'warehouse: expected one row, found 0';
  END IF;
  SELECT c_discount, c_last, c_credit INTO v_c_discount, v_c_last, v_c_credit FROM customer
    WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = p_c_id;
  IF v_found = 0 THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'customer: expected one row, found 0';
  END IF;
  WHILE k <= v_count DO
    SET v_number = CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(p_ol_numbers, ',', k), ',', -1) AS SIGNED);
    SET v_item = CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(p_items, ',', k), ',', -1) AS SIGNED);
    SET v_supply = CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(p_supply, ',', k), ',', -1) AS SIGNED);
    SET v_quantity = CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(p_quantities, ',', k), ',', -1)
      AS SIGNED);
    SET v_remote = IF(v_supply = p_w_id, 0, 1);
    IF v_remote = 1 THEN SET v_all_local = 0; END IF;
    SET v_found = 1;
    SELECT i_price, i_name, i_data INTO v_price, v_name, v_i_data FROM item WHERE i_id = v_item;
    IF v_found = 0 THEN SET v_invalid = 1; END IF;
    UPDATE stock SET s_quantity = CASE WHEN s_quantity >= v_quantity + 10
        THEN s_quantity - v_quantity ELSE s_quantity - v_quantity + 91 END,
      s_ytd = s_ytd + v_quantity, s_order_cnt = s_order_cnt + 1,
      s_remote_cnt = s_remote_cnt + v_remote
      WHERE s_w_id = v_supply AND s_i_id = v_item;
    SET v_found = 1;
    SELECT s_quantity, s_data, ELT(p_d_id, s_dist_01, s_dist_02, s_dist_03, s_dist_04,
        s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10)
      INTO v_s_quantity, v_s_data, v_dist FROM stock WHERE s_w_id = v_supply AND s_i_id = v_item;
    IF v_invalid = 0 THEN
      IF v_found = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'stock: expected one row, found 0';
      END IF;
      SET v_amount = v_quantity * v_price;
      SET v_sum = v_sum + v_amount;
      SET v_lines = CONCAT(v_lines, IF(k = 1, '', ';'), CONCAT_WS(',', v_number, v_name,
        v_price, v_s_quantity, IF(LOCATE('ORIGINAL', v_i_data) > 0
          AND LOCATE('ORIGINAL', v_s_data) > 0, 'B', 'G'), v_amount));
      SET v_amounts = CONCAT(v_amounts, IF(k = 1, '', ','), v_amount);
      SET v_dists = CONCAT(v_dists, IF(k = 1, '', ','), v_dist);
    END IF;
    SET k = k + 1;
  END WHILE;
  IF v_invalid = 1 THEN
    SET v_message = CONCAT('Item number is not valid: o_id=', v_o_id, ' c_credit=', v_c_credit,
      ' c_last=', v_c_last);
    SIGNAL SQLSTATE 'TPCRB' SET MESSAGE_TEXT = v_message;
  END IF;
  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt,
    o_all_local) VALUES (v_o_id, p_d_id, p_w_id, p_c_id, p_entry_d, NULL, v_count, v_all_local);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o_id, p_d_id, p_w_id);
  SET k = 1;
  WHILE k <= v_count DO
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
      ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (v_o_id, p_d_id, p_w_id,
      CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(p_ol_numbers, ',', k), ',', -1) AS SIGNED),
      CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(p_items, ',', k), ',', -1) AS SIGNED),
      CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(p_supply, ',', k), ',', -1) AS SIGNED), NULL,
      CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(p_quantities, ',', k), ',', -1) AS SIGNED),
      CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(v_amounts, ',', k), ',', -1) AS DECIMAL(6,2)),
      SUBSTRING_INDEX(SUBSTRING_INDEX(v_dists, ',', k), ',', -1));
    SET k = k + 1;
  END WHILE;
  SELECT v_o_id, v_d_tax, v_w_tax, v_c_discount, v_c_last, v_c_credit,
    v_sum * (1 - v_c_discount) * (1 + v_w_tax + v_d_tax), v_lines;
END)sql"},
    {"tpcc_proc_drop_payment", "DROP PROCEDURE IF EXISTS tpcc_payment"},
    {"tpcc_proc_create_payment",
     R"sql(CREATE PROCEDURE tpcc_payment(IN p_w_id INT, IN p_d_id INT, IN p_c_w_id INT, IN p_c_d_id INT,
    IN p_c_id INT, IN p_c_last VARCHAR(16), IN p_by_name INT, IN p_amount DECIMAL(6,2),
    IN p_bc_tail VARCHAR(128), IN p_h_date VARCHAR(32))
BEGIN
  DECLARE v_found INT DEFAULT 1;
  DECLARE v_count, v_c_id INT;
  DECLARE v_w_name, v_d_name VARCHAR(10);
  DECLARE v_w_street_1, v_w_street_2, v_w_city, v_d_street_1, v_d_street_2, v_d_city
    VARCHAR(20);
  DECLARE v_w_state, v_d_state CHAR(2);
  DECLARE v_w_zip, v_d_zip CHAR(9);
  DECLARE v_message VARCHAR(128);
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_found = 0;
  UPDATE warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w_id;
  SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip
    INTO v_w_name, v_w_street_1, v_w_street_2, v_w_city, v_w_state, v_w_zip
    FROM warehouse WHERE w_id = p_w_id;
  IF v_found = 0 THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'warehouse: expected one row, found 0';
  END IF;
  UPDATE district SET d_ytd = d_ytd + p_amount WHERE d_w_id = p_w_id AND d_id = p_d_id;
  SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip
    INTO v_d_name, v_d_street_1, v_d_street_2, v_d_city, v_d_state, v_d_zip
    FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
  IF v_found = 0 THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'district: expected one row, found 0';
  END IF;
  SET v_c_id = p_c_id;
  IF p_by_name <> 0 THEN
    SELECT count(*) INTO v_count FROM customer
      WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_last = p_c_last;
    IF v_count = 0 THEN
      SET v_message = CONCAT('no customer named ', p_c_last);
      SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = v_message;
    END IF;
    SET v_count = (v_count + 1) DIV 2 - 1;
    SELECT c_id INTO v_c_id FROM customer
      WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_last = p_c_last
      ORDER BY c_first LIMIT v_count, 1;
  END IF;
  UPDATE customer SET c_balance = c_balance - p_amount,
    c_ytd_payment = c_ytd_payment + p_amount, c_payment_cnt = c_payment_cnt + 1,
    c_data = CASE WHEN c_credit = 'BC' THEN substr(concat(v_c_id, p_bc_tail, c_data), 1, 500)
      ELSE c_data END
    WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id;
  IF ROW_COUNT() <> 1 THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'customer: expected one row, found 0';
  END IF;
  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
    VALUES (v_c_id, p_c_d_id, p_c_w_id, p_d_id, p_w_id, p_h_date, p_amount,
      concat(v_w_name, '    ', v_d_name));
  SELECT v_w_street_1, v_w_street_2, v_w_city, v_w_state, v_w_zip,
    v_d_street_1, v_d_street_2, v_d_city, v_d_state, v_d_zip, v_c_id, c_first, c_middle,
    c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit,
    c_credit_lim, c_discount, c_balance, substr(c_data, 1, 200)
    FROM customer WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id;
END)sql"},
    {"tpcc_proc_drop_order_status", "DROP PROCEDURE IF EXISTS tpcc_order_status"},
    {"tpcc_proc_create_order_status",
     R"sql(CREATE PROCEDURE tpcc_order_status(IN p_w_id INT, IN p_d_id INT, IN p_c_id INT,
    IN p_c_last VARCHAR(16), IN p_by_name INT)
BEGIN
  DECLARE v_count, v_c_id INT;
  DECLARE v_message VARCHAR(128);
  SET v_c_id = p_c_id;
  IF p_by_name <> 0 THEN
    SELECT count(*) INTO v_count FROM customer
      WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last;
    IF v_count = 0 THEN
      SET v_message = CONCAT('no customer named ', p_c_last);
      SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = v_message;
    END IF;
    SET v_count = (v_count + 1) DIV 2 - 1;
    SELECT c_id INTO v_c_id FROM customer
      WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last
      ORDER BY c_first LIMIT v_count, 1;
  END IF;
  SELECT v_c_id, c_first, c_middle, c_last, c_balance, o_id, o_entry_d, o_carrier_id, packed_lines
    FROM customer LEFT JOIN (SELECT o_id, o_entry_d, o_carrier_id,
      GROUP_CONCAT(CONCAT_WS(',', ol_supply_w_id, ol_i_id, ol_quantity, ol_amount,
        IFNULL(ol_delivery_d, '')) ORDER BY ol_number SEPARATOR ';') AS packed_lines
      FROM orders, order_line WHERE o_w_id = p_w_id AND o_d_id = p_d_id AND o_id = (SELECT
        max(o_id) FROM orders WHERE o_w_id = p_w_id AND o_d_id = p_d_id AND o_c_id = v_c_id)
        AND ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
      GROUP BY o_id, o_entry_d, o_carrier_id) AS latest ON TRUE
    WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = v_c_id;
END)sql"},
    {"tpcc_proc_drop_delivery", "DROP PROCEDURE IF EXISTS tpcc_delivery"},
    {"tpcc_proc_create_delivery",
     R"sql(CREATE PROCEDURE tpcc_delivery(IN p_w_id INT, IN p_carrier_id INT, IN p_delivery_d VARCHAR(32))
BEGIN
  DECLARE v_found INT DEFAULT 1;
  DECLARE d INT DEFAULT 1;
  DECLARE v_o_id, v_orders, v_customers INT;
  DECLARE v_o_ids VARCHAR(128) DEFAULT '';
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_found = 0;
  WHILE d <= 10 DO
    SET v_found = 1;
    SELECT no_o_id INTO v_o_id FROM new_order WHERE no_w_id = p_w_id AND no_d_id = d
      ORDER BY no_o_id LIMIT 1 FOR UPDATE;
    DELETE FROM new_order WHERE no_w_id = p_w_id AND no_d_id = d ORDER BY no_o_id LIMIT 1;
    SET v_o_ids = CONCAT(v_o_ids, IF(d = 1, '', ','), IF(v_found = 1, v_o_id, 0));
    SET d = d + 1;
  END WHILE;
  SET d = 1;
  WHILE d <= 10 DO
    SET v_o_id = CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(v_o_ids, ',', d), ',', -1) AS SIGNED);
    IF v_o_id <> 0 THEN
      UPDATE orders SET o_carrier_id = p_carrier_id
        WHERE o_w_id = p_w_id AND o_d_id = d AND o_id = v_o_id;
      SET v_orders = ROW_COUNT();
      UPDATE order_line SET ol_delivery_d = p_delivery_d
        WHERE ol_w_id = p_w_id AND ol_d_id = d AND ol_o_id = v_o_id;
      UPDATE customer SET c_balance = c_balance + (SELECT sum(ol_amount) FROM order_line
          WHERE ol_w_id = p_w_id AND ol_d_id = d AND ol_o_id = v_o_id),
        c_delivery_cnt = c_delivery_cnt + 1
        WHERE c_w_id = p_w_id AND c_d_id = d AND c_id = (SELECT o_c_id FROM orders
          WHERE o_w_id = p_w_id AND o_d_id = d AND o_id = v_o_id);
      SET v_customers = ROW_COUNT();
      IF v_orders <> 1 OR v_customers <> 1 THEN
        SIGNAL SQLSTATE '45000'
          SET MESSAGE_TEXT = 'delivery: an undelivered order has no ORDERS or CUSTOMER row';
      END IF;
    END IF;
    SET d = d + 1;
  END WHILE;
  SELECT v_o_ids;
END)sql"},
    {"tpcc_proc_drop_stock_level", "DROP PROCEDURE IF EXISTS tpcc_stock_level"},
    {"tpcc_proc_create_stock_level",
     R"sql(CREATE PROCEDURE tpcc_stock_level(IN p_w_id INT, IN p_d_id INT, IN p_threshold INT)
BEGIN
  DECLARE v_found INT DEFAULT 1;
  DECLARE v_next_o_id INT;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_found = 0;
  SELECT d_next_o_id INTO v_next_o_id FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
  IF v_found = 0 THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'district: expected one row, found 0';
  END IF;
  SELECT v_next_o_id, count(DISTINCT s_i_id) FROM order_line, stock, district
    WHERE d_w_id = p_w_id AND d_id = p_d_id AND ol_w_id = p_w_id AND ol_d_id = p_d_id
      AND ol_o_id < d_next_o_id AND ol_o_id >= d_next_o_id - 20
      AND s_w_id = p_w_id AND s_i_id = ol_i_id AND s_quantity < p_threshold;
END)sql"},
}};

}  // namespace

std::span<const driver::statement> mysql_procedures() noexcept { return procedures; }

}  // namespace tpcc::schema
