// SPDX-License-Identifier: Apache-2.0
// The SQL of the twelve consistency conditions (conditions.hpp). Each condition is written as
// `groups` (one row per group it examines, with keys k1..k4 and values v1..v3, restricted to the
// warehouses $1..$2) and `offends` (when such a row breaks the condition); `framed` wraps them
// into the one statement that counts and lists the offenders. Portable SQL only: CTEs with
// column lists, LEFT JOINs on grouped sub-queries, CASE, coalesce, abs, CAST, LIMIT. A parameter
// used in two contexts is CAST, or PostgreSQL deduces two types for it.
#include "check/conditions.hpp"

#include <string>
#include <string_view>

namespace tpcc::check {
namespace {

// A condition before it is framed.
struct source {
  std::string_view clause;
  std::string_view title;
  std::string_view name;     // the statement's name
  std::string_view groups;   // SELECT k1, k2, k3, k4, v1, v2, v3 ... over warehouses $1..$2
  std::string_view offends;  // a predicate over v1..v3
  std::array<std::string_view, 4> keys;
  std::array<std::string_view, 3> values;
  shown as = shown::count;
  bool needs_population = false;
};

// Money: half a cent of tolerance, since sums travel as double on some engines.
constexpr std::string_view money_differs = "v1 IS NULL OR abs(v1 - v2) > 0.005";
constexpr std::string_view counts_differ = "v1 IS NULL OR v1 <> v2";

// Sum of the delivered order lines of each customer of the chunk (conditions 10 and 12): it
// replaces "{delivered}" in their `groups`.
constexpr std::string_view delivered_placeholder = "{delivered}";
constexpr std::string_view delivered_per_customer =
    "LEFT JOIN (SELECT o_w_id, o_d_id, o_c_id, sum(ol_amount) AS s FROM orders "
    "JOIN order_line ON ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id "
    "WHERE o_w_id BETWEEN $1 AND $2 AND ol_w_id BETWEEN $1 AND $2 "
    "AND ol_delivery_d IS NOT NULL GROUP BY o_w_id, o_d_id, o_c_id) ol "
    "ON ol.o_w_id = c_w_id AND ol.o_d_id = c_d_id AND ol.o_c_id = c_id ";

constexpr std::array<source, 12> sources{{
    {"3.3.2.1",
     "W_YTD = sum(D_YTD)",
     "tpcc_check_1",
     "SELECT w_id, 0, 0, 0, w_ytd, coalesce(d.s, 0), NULL FROM warehouse "
     "LEFT JOIN (SELECT d_w_id, sum(d_ytd) AS s FROM district WHERE d_w_id BETWEEN $1 AND $2 "
     "GROUP BY d_w_id) d ON d.d_w_id = w_id WHERE w_id BETWEEN $1 AND $2",
     money_differs,
     {"W_ID", "", "", ""},
     {"W_YTD", "sum(D_YTD)", ""},
     shown::money},
    {"3.3.2.2",
     "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID)",
     "tpcc_check_2",
     "SELECT d_w_id, d_id, 0, 0, d_next_o_id - 1, "
     "coalesce((SELECT max(o_id) FROM orders WHERE o_w_id = d_w_id AND o_d_id = d_id), 0), "
     "(SELECT max(no_o_id) FROM new_order WHERE no_w_id = d_w_id AND no_d_id = d_id) "
     "FROM district WHERE d_w_id BETWEEN $1 AND $2",
     // max(NO_O_ID) does not apply to a district without NEW-ORDER rows.
     "v1 IS NULL OR v1 <> v2 OR (v3 IS NOT NULL AND v3 <> v1)",
     {"W_ID", "D_ID", "", ""},
     {"D_NEXT_O_ID - 1", "max(O_ID)", "max(NO_O_ID)"}},
    {"3.3.2.3",
     "max(NO_O_ID) - min(NO_O_ID) + 1 = NEW-ORDER rows",
     "tpcc_check_3",
     "SELECT no_w_id, no_d_id, 0, 0, max(no_o_id) - min(no_o_id) + 1, count(*), NULL "
     "FROM new_order WHERE no_w_id BETWEEN $1 AND $2 GROUP BY no_w_id, no_d_id",
     counts_differ,
     {"W_ID", "D_ID", "", ""},
     {"max - min + 1", "rows", ""}},
    {"3.3.2.4",
     "sum(O_OL_CNT) = ORDER-LINE rows",
     "tpcc_check_4",
     "SELECT d_w_id, d_id, 0, 0, coalesce(o.n, 0), coalesce(l.n, 0), NULL FROM district "
     "LEFT JOIN (SELECT o_w_id, o_d_id, sum(o_ol_cnt) AS n FROM orders "
     "WHERE o_w_id BETWEEN $1 AND $2 GROUP BY o_w_id, o_d_id) o "
     "ON o.o_w_id = d_w_id AND o.o_d_id = d_id "
     "LEFT JOIN (SELECT ol_w_id, ol_d_id, count(*) AS n FROM order_line "
     "WHERE ol_w_id BETWEEN $1 AND $2 GROUP BY ol_w_id, ol_d_id) l "
     "ON l.ol_w_id = d_w_id AND l.ol_d_id = d_id WHERE d_w_id BETWEEN $1 AND $2",
     counts_differ,
     {"W_ID", "D_ID", "", ""},
     {"sum(O_OL_CNT)", "ORDER-LINE rows", ""}},
    {"3.3.2.5",
     "O_CARRIER_ID null iff a NEW-ORDER row exists",
     "tpcc_check_5",
     "SELECT o_w_id, o_d_id, o_id, 0, CASE WHEN o_carrier_id IS NULL THEN 1 ELSE 0 END, "
     "CASE WHEN no_o_id IS NULL THEN 0 ELSE 1 END, NULL FROM orders "
     "LEFT JOIN new_order ON no_w_id = o_w_id AND no_d_id = o_d_id AND no_o_id = o_id "
     "WHERE o_w_id BETWEEN $1 AND $2",
     "v1 <> v2",
     {"W_ID", "D_ID", "O_ID", ""},
     {"O_CARRIER_ID null", "NEW-ORDER row", ""},
     shown::flag},
    {"3.3.2.6",
     "O_OL_CNT = ORDER-LINE rows of the order",
     "tpcc_check_6",
     "SELECT o_w_id, o_d_id, o_id, 0, o_ol_cnt, coalesce(l.n, 0), NULL FROM orders "
     "LEFT JOIN (SELECT ol_w_id, ol_d_id, ol_o_id, count(*) AS n FROM order_line "
     "WHERE ol_w_id BETWEEN $1 AND $2 GROUP BY ol_w_id, ol_d_id, ol_o_id) l "
     "ON l.ol_w_id = o_w_id AND l.ol_d_id = o_d_id AND l.ol_o_id = o_id "
     "WHERE o_w_id BETWEEN $1 AND $2",
     counts_differ,
     {"W_ID", "D_ID", "O_ID", ""},
     {"O_OL_CNT", "ORDER-LINE rows", ""}},
    {"3.3.2.7",
     "OL_DELIVERY_D null iff O_CARRIER_ID null",
     "tpcc_check_7",
     "SELECT ol_w_id, ol_d_id, ol_o_id, ol_number, "
     "CASE WHEN ol_delivery_d IS NULL THEN 1 ELSE 0 END, "
     "CASE WHEN o_carrier_id IS NULL THEN 1 ELSE 0 END, NULL FROM order_line "
     "JOIN orders ON o_w_id = ol_w_id AND o_d_id = ol_d_id AND o_id = ol_o_id "
     "WHERE ol_w_id BETWEEN $1 AND $2 AND o_w_id BETWEEN $1 AND $2",
     "v1 <> v2",
     {"W_ID", "D_ID", "O_ID", "OL_NUMBER"},
     {"OL_DELIVERY_D null", "O_CARRIER_ID null", ""},
     shown::flag},
    {"3.3.2.8",
     "W_YTD = sum(H_AMOUNT)",
     "tpcc_check_8",
     "SELECT w_id, 0, 0, 0, w_ytd, coalesce(h.s, 0), NULL FROM warehouse "
     "LEFT JOIN (SELECT h_w_id, sum(h_amount) AS s FROM history WHERE h_w_id BETWEEN $1 AND $2 "
     "GROUP BY h_w_id) h ON h.h_w_id = w_id WHERE w_id BETWEEN $1 AND $2",
     money_differs,
     {"W_ID", "", "", ""},
     {"W_YTD", "sum(H_AMOUNT)", ""},
     shown::money},
    {"3.3.2.9",
     "D_YTD = sum(H_AMOUNT)",
     "tpcc_check_9",
     "SELECT d_w_id, d_id, 0, 0, d_ytd, coalesce(h.s, 0), NULL FROM district "
     "LEFT JOIN (SELECT h_w_id, h_d_id, sum(h_amount) AS s FROM history "
     "WHERE h_w_id BETWEEN $1 AND $2 GROUP BY h_w_id, h_d_id) h "
     "ON h.h_w_id = d_w_id AND h.h_d_id = d_id WHERE d_w_id BETWEEN $1 AND $2",
     money_differs,
     {"W_ID", "D_ID", "", ""},
     {"D_YTD", "sum(H_AMOUNT)", ""},
     shown::money},
    {"3.3.2.10",
     "C_BALANCE = sum(OL_AMOUNT) - sum(H_AMOUNT)",
     "tpcc_check_10",
     "SELECT c_w_id, c_d_id, c_id, 0, c_balance, coalesce(ol.s, 0) - coalesce(h.s, 0), NULL "
     "FROM customer {delivered}"
     "LEFT JOIN (SELECT h_c_w_id, h_c_d_id, h_c_id, sum(h_amount) AS s FROM history "
     "WHERE h_c_w_id BETWEEN $1 AND $2 GROUP BY h_c_w_id, h_c_d_id, h_c_id) h "
     "ON h.h_c_w_id = c_w_id AND h.h_c_d_id = c_d_id AND h.h_c_id = c_id "
     "WHERE c_w_id BETWEEN $1 AND $2",
     money_differs,
     {"W_ID", "D_ID", "C_ID", ""},
     {"C_BALANCE", "sum(OL_AMOUNT) - sum(H_AMOUNT)", ""},
     shown::money},
    {"3.3.2.11",
     "count(ORDER) - count(NEW-ORDER) = delivered orders",
     "tpcc_check_11",
     "SELECT d_w_id, d_id, 0, 0, "
     "(SELECT count(*) FROM orders WHERE o_w_id = d_w_id AND o_d_id = d_id) - "
     "(SELECT count(*) FROM new_order WHERE no_w_id = d_w_id AND no_d_id = d_id), "
     "CAST($4 AS BIGINT) + (SELECT count(*) FROM orders WHERE o_w_id = d_w_id "
     "AND o_d_id = d_id AND o_id > CAST($4 AS BIGINT) AND o_carrier_id IS NOT NULL), NULL "
     "FROM district WHERE d_w_id BETWEEN $1 AND $2",
     counts_differ,
     {"W_ID", "D_ID", "", ""},
     {"count(ORDER) - count(NEW-ORDER)", "population + deliveries since", ""},
     shown::count,
     true},
    {"3.3.2.12",
     "C_BALANCE + C_YTD_PAYMENT = sum(OL_AMOUNT)",
     "tpcc_check_12",
     "SELECT c_w_id, c_d_id, c_id, 0, c_balance + c_ytd_payment, coalesce(ol.s, 0), NULL "
     "FROM customer {delivered}WHERE c_w_id BETWEEN $1 AND $2",
     money_differs,
     {"W_ID", "D_ID", "C_ID", ""},
     {"C_BALANCE + C_YTD_PAYMENT", "sum(OL_AMOUNT)", ""},
     shown::money},
}};

// The statement around a condition: count every group and the offending ones (kind 0), then
// list the first $3 offenders in key order (kind 1). Unused keys are 0, never NULL: PostgreSQL
// would type a NULL CTE column as text, which cannot be united with the counts.
std::string framed(const source& s) {
  std::string groups(s.groups);
  if (const auto at = groups.find(delivered_placeholder); at != std::string::npos) {
    groups.replace(at, delivered_placeholder.size(), delivered_per_customer);
  }
  std::string sql = "WITH g (k1, k2, k3, k4, v1, v2, v3) AS (";
  sql += groups;
  sql += "), t AS (SELECT k1, k2, k3, k4, v1, v2, v3, CASE WHEN ";
  sql += s.offends;
  sql +=
      " THEN 1 ELSE 0 END AS bad FROM g) "
      "SELECT 0 AS kind, count(*) AS k1, coalesce(sum(bad), 0) AS k2, 0 AS k3, 0 AS k4, "
      "NULL AS v1, NULL AS v2, NULL AS v3 FROM t "
      "UNION ALL SELECT * FROM (SELECT 1 AS kind, k1, k2, k3, k4, v1, v2, v3 FROM t "
      "WHERE bad = 1 ORDER BY k1, k2, k3, k4 LIMIT $3) AS o";
  return sql;
}

// MySQL's CAST knows SIGNED, not BIGINT; empty when `sql` has no such cast.
std::string mysql_form(const std::string& sql) {
  constexpr std::string_view pg = " AS BIGINT)";
  constexpr std::string_view my = " AS SIGNED)";
  if (sql.find(pg) == std::string::npos) return {};
  std::string out = sql;
  for (std::size_t at = out.find(pg); at != std::string::npos; at = out.find(pg, at)) {
    out.replace(at, pg.size(), my);
  }
  return out;
}

struct built {
  std::array<std::string, sources.size()> sql;
  std::array<std::string, sources.size()> mysql;  // empty when the same
  std::array<driver::statement, sources.size()> statements;
  std::array<condition, sources.size()> conditions;

  built() {
    for (std::size_t i = 0; i < sources.size(); ++i) {
      const source& s = sources[i];
      sql[i] = framed(s);
      mysql[i] = mysql_form(sql[i]);
      statements[i] = driver::statement{s.name, sql[i], mysql[i]};
      conditions[i] =
          condition{s.clause, s.title, &statements[i], s.keys, s.values, s.as, s.needs_population};
    }
  }
  built(const built&) = delete;
  built& operator=(const built&) = delete;
  ~built() = default;
};

}  // namespace

std::span<const condition> conditions() {
  static const built all;
  return all.conditions;
}

}  // namespace tpcc::check
