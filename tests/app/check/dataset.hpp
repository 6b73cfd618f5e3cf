// SPDX-License-Identifier: Apache-2.0
// dataset.hpp: a small, hand-built, consistent TPC-C database for the consistency-check tests,
// and corruptions that each break one consistency condition (clause 3.3.2.N).
//
// The dataset: 2 warehouses of 10 districts; per district 3 customers and 5 orders, of which
// order 1 was delivered by the population (lines of 0.00, as clause 4.3.3.1 loads them), order 2
// delivered since, and orders 3..5 undelivered (with NEW-ORDER rows). Per district, customers
// 1 and 2 paid at home and customer 3 paid through the other warehouse's district of the same
// number (a remote payment), so the YTDs and balances only agree if the checks select history
// by the right columns. Its population delivered 1 order per district (population_delivered).
//
// Thread-safety: plain functions and static statements.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "check/check.hpp"
#include "driver/database.hpp"
#include "driver/open.hpp"
#include "driver/statement.hpp"
#include "shoal/task.hpp"

namespace tpcc::check::testing {

inline constexpr std::int64_t warehouses = 2;
inline constexpr std::int64_t districts = 10;
inline constexpr std::int64_t customers_per_district = 3;
inline constexpr std::int64_t orders_per_district = 5;
inline constexpr std::int64_t lines_per_district = 10;
inline constexpr std::int64_t population_delivered = 1;

// Statements that break condition 3.3.2.`clause` in district (w, d) and no other condition.
// Conditions 1 and 8 name warehouse w only; 2, 3, 4, 9, 11 district (w, d) (9 also d + 1);
// 5 orders 2 and 5; 6 orders 3 and 4; 7 order 3 line 1; 10 customers 1 and 2; 12 customer 1.
[[nodiscard]] std::vector<driver::call> corruption(int clause, std::int64_t w, std::int64_t d);

// The offenders check_consistency reports, in order, after corruption(clause, 1, 3).
[[nodiscard]] std::vector<std::string> expected_offenders(int clause);

// Drops and creates the tables (schema.hpp), loads the dataset, then runs `corrupt` in one
// transaction. Throws std::runtime_error naming the statement that failed.
shoal::task<void> build(driver::database& db, std::vector<driver::call> corrupt);

// Check options covering the whole dataset, `chunk` districts at a time.
[[nodiscard]] check_options whole_dataset(std::int64_t chunk = 10);

// The database at `where`, opened; throws std::runtime_error with the driver's message.
shoal::task<std::unique_ptr<driver::database>> opened(driver::database_options where);

// The clauses of the failing conditions among `results`, each followed by a space.
[[nodiscard]] std::string failing(const std::vector<condition_result>& results);

}  // namespace tpcc::check::testing
