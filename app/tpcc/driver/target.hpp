// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/target.hpp: a --db value, read in one place: which database it names.
//
// What: engine_of() names the engine a target (or a database's description, which starts the
// same way) is for, by its form alone:
//   sqlite:PATH                        engine::sqlite (an embedded file; PATH may be empty here,
//                                      open_database refuses that);
//   sim:...                            engine::sim (the capacity mode's simulated database,
//                                      driver/sim/sim.hpp: not a database);
//   postgresql://..., postgres://..., or key=value pairs
//                                      engine::postgres (libpq checks the rest when opening);
//   mysql://..., mariadb://...         engine::mysql (MySQL or MariaDB: driver/mysql/mysql.hpp;
//                                      checked before the key=value form, which a URI's
//                                      ?socket=... would otherwise look like);
//   anything else                      engine::unknown (open_database refuses it, saying what
//                                      is accepted).
// parse_target() is what the command line reads --db with: the target, or what is wrong with
// it (an empty value; a sim: target's settings, checked at once).
// Thread-safety: plain values and pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace tpcc::driver {

enum class engine : std::uint8_t { sqlite, postgres, mysql, sim, unknown };

struct target {
  std::string text;  // as given; may hold a password: show redact(text) (driver/open.hpp)
  engine kind = engine::unknown;

  [[nodiscard]] bool is_sqlite() const noexcept { return kind == engine::sqlite; }
  // The capacity mode's simulated database: not a database.
  [[nodiscard]] bool is_sim() const noexcept { return kind == engine::sim; }
};

[[nodiscard]] engine engine_of(std::string_view text) noexcept;

// The target `text` names, or what is wrong with it, phrased to follow "--db ".
[[nodiscard]] std::variant<target, std::string> parse_target(std::string_view text);

// The path of a sqlite: target (what follows "sqlite:"); empty for any other.
[[nodiscard]] std::string_view sqlite_path(std::string_view text) noexcept;

}  // namespace tpcc::driver
