// SPDX-License-Identifier: Apache-2.0
// What a load recorded (meta.hpp).
#include "schema/meta.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <string>
#include <string_view>
#include <utility>

#include "schema/schema.hpp"

namespace tpcc::schema {
namespace {

using driver::call;
using driver::outcome;
using driver::outcome_kind;
using driver::statement_result;
using driver::value;

// The tpcc_meta names, in the order of the read batch.
constexpr std::array<std::string_view, 4> names{"warehouses", "c_last", "c_id", "ol_i_id"};

std::vector<value> one(value v) {
  std::vector<value> params;
  params.push_back(std::move(v));
  return params;
}

std::vector<value> pair_of(std::string_view name, std::int64_t number) {
  std::vector<value> params;
  params.emplace_back(std::string(name));
  params.emplace_back(std::to_string(number));
  return params;
}

std::vector<call> read_calls() {
  std::vector<call> calls;
  calls.reserve(names.size() + 1);
  for (std::string_view name : names) calls.push_back({&meta_get, one(std::string(name))});
  calls.push_back({&loaded_list, {}});
  return calls;
}

std::vector<call> write_calls(const load_meta& meta) {
  std::vector<call> calls;
  calls.reserve(names.size());
  for (const auto& [name, number] : meta_entries(meta)) {
    calls.push_back({&meta_put, pair_of(name, number)});
  }
  return calls;
}

bool is_missing_table(const outcome& o) {
  return o.kind == outcome_kind::failed &&
         (o.sqlstate == "42P01" || o.message.find("no such table") != std::string::npos);
}

outcome malformed(std::string_view name) {
  return outcome::make(outcome_kind::failed, "",
                       "tpcc_meta holds a malformed value for '" + std::string(name) + "'");
}

// Reads one meta value (0 when absent) into `out`; failed when it is not an integer.
outcome parse_value(const statement_result& r, std::string_view name, std::int64_t& out) {
  out = 0;
  if (r.rows.empty()) return outcome::success();
  if (r.rows[0].null_at(0)) return malformed(name);
  const std::string& text = r.rows[0].text_at(0);
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  if (ec != std::errc() || ptr != end) return malformed(name);
  return outcome::success();
}

// Builds the meta from the batch's results (names..., loaded_list, commit).
meta_result parse(const std::vector<statement_result>& results) {
  for (const statement_result& r : results) {
    if (is_missing_table(r.status)) {
      return outcome::make(outcome_kind::failed, r.status.sqlstate, schema_missing_message());
    }
    if (!r.ok()) return r.status;
  }
  load_meta meta;
  std::array<std::int64_t*, 4> fields{&meta.warehouses, &meta.constants.c_last,
                                      &meta.constants.c_id, &meta.constants.ol_i_id};
  for (std::size_t i = 0; i < names.size(); ++i) {
    outcome parsed = parse_value(results[i], names[i], *fields[i]);
    if (!parsed.ok()) return parsed;
  }
  for (const driver::row& r : results[names.size()].rows) meta.loaded.push_back(r.int_at(0));
  return meta;
}

}  // namespace

std::array<std::pair<std::string_view, std::int64_t>, 4> meta_entries(
    const load_meta& meta) noexcept {
  return {{{names[0], meta.warehouses},
           {names[1], meta.constants.c_last},
           {names[2], meta.constants.c_id},
           {names[3], meta.constants.ol_i_id}}};
}

bool load_meta::is_loaded(std::int64_t w_id) const noexcept {
  return std::binary_search(loaded.begin(), loaded.end(), w_id);
}

std::optional<std::string> load_meta::incomplete() const {
  if (warehouses <= 0) return "the database is not loaded: run `shoal-tpcc load` first";
  const auto done =
      std::count_if(loaded.begin(), loaded.end(), [](std::int64_t w) { return w > 0; });
  const bool items = std::find(loaded.begin(), loaded.end(), 0) != loaded.end();
  if (done >= warehouses && items) return std::nullopt;
  return "the database is only partly loaded (" + std::to_string(done) + " of " +
         std::to_string(warehouses) + (warehouses == 1 ? " warehouse" : " warehouses") +
         (items ? "" : ", the items missing") +
         "): `shoal-tpcc load` with the same --db finishes it (it resumes the recorded count)";
}

const char* schema_missing_message() noexcept {
  return "schema missing: run `shoal-tpcc init` first";
}

shoal::task<meta_result> read_meta(driver::session& s) {
  const outcome began = co_await s.begin();
  if (!began.ok()) co_return began;
  const std::vector<call> calls = read_calls();
  const std::vector<statement_result> results =
      co_await s.execute_batch(calls, driver::then::commit);
  meta_result meta = parse(results);
  if (std::holds_alternative<outcome>(meta)) co_await s.rollback();
  co_return meta;
}

shoal::task<meta_result> read_meta(driver::database& db) {
  driver::lease l = co_await db.acquire();
  if (!l) co_return l.status();
  co_return co_await read_meta(*l);
}

shoal::task<outcome> write_meta(driver::session& s, const load_meta& meta) {
  const std::vector<call> calls = write_calls(meta);
  const std::vector<statement_result> results =
      co_await s.execute_batch(calls, driver::then::nothing);
  co_return first_failure(results);
}

}  // namespace tpcc::schema
