// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/options.cpp: parsing the command line against the table (see options.hpp).
#include "cli/options.hpp"

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <optional>

#include "cli/analytic_streams.hpp"
#include "cli/config_file.hpp"
#include "cli/endpoints.hpp"
#include "cli/load_split.hpp"
#include "cli/option_table.hpp"
#include "cli/schedule.hpp"
#include "cli/values.hpp"

namespace tpcc::cli {
namespace {

using std::string_view;

// The simulated database holds no data: only `run` means anything on it.
std::optional<std::string> sim_only_runs(const config& c) {
  if (!c.is_sim() || c.cmd == command::run || c.cmd == command::help || c.cmd == command::version) {
    return std::nullopt;
  }
  return join({"--db ", c.db.text,
               " is the simulated database of the capacity mode: it holds no data, so only "
               "`shoal-tpcc run` works on it (init, load, check, clean and the default job "
               "do not)"});
}

// A rate as typed back: whole transactions per minute.
std::string tpm_text(double tpm) {
  char out[32];
  std::snprintf(out, sizeof out, "%.0f", tpm);
  return out;
}

// --rate replaces the keying and think times: scaling or dropping them too means nothing; and
// when the warehouses are known, each terminal is given at most max_tpm_per_terminal (the
// run checks it again once it knows the loaded count).
// A schedule (cli/schedule.hpp) is checked by its highest step.
std::optional<std::string> rate_fits(const config& c) {
  const double asked = std::max(c.rate_tpm, peak_schedule_rate(c.schedule));
  if (asked <= 0) return std::nullopt;
  if (c.waits_given) {
    return std::string(
        "--rate replaces the keying and think times: it cannot be combined with --no-wait or "
        "--wait-scale");
  }
  const std::int64_t warehouses =
      c.warehouses != 0 ? c.warehouses : (c.cmd == command::all ? 2 : 0);
  const std::int64_t terminals = warehouses / c.shard_count * c.terminals;
  if (warehouses == 0 || asked <= static_cast<double>(terminals) * max_rate_per_terminal) {
    return std::nullopt;
  }
  return join({c.schedule.empty() ? "--rate " : "--schedule's step of ", tpm_text(asked),
               " is more than ", std::to_string(terminals), " terminals can offer (at most ",
               tpm_text(max_rate_per_terminal),
               " per terminal: a mean gap of 1 ms); give more --terminals or --warehouses"});
}

// Stored procedures live in a database server: not in SQLite, not in the simulation.
std::optional<std::string> procedures_need_a_server(const config& c) {
  if (!c.procedures || c.cmd == command::help || c.cmd == command::version) return std::nullopt;
  if (!c.is_sqlite() && !c.is_sim()) return std::nullopt;
  return join({"--procedures needs PostgreSQL or MySQL/MariaDB; --db ", c.db.text, " is ",
               c.is_sim() ? "the simulated database" : "SQLite",
               ", which has no stored procedures"});
}

// `merge` and `compare` take result files; nothing else takes positional arguments.
std::optional<std::string> merge_inputs_given(const config& c) {
  if (c.cmd == command::compare && c.inputs.size() < 2) {
    return std::string(
        "compare needs at least two result files: shoal-tpcc compare A.json "
        "B.json [C.json ...]");
  }
  if (c.cmd != command::merge || !c.inputs.empty()) return std::nullopt;
  return std::string("merge needs result files: shoal-tpcc merge a.json b.json ...");
}

// A positional argument: a result file of merge, the topic of help, or a mistake.
std::optional<std::string> positional(config& c, command chosen, string_view arg) {
  if (chosen == command::merge || chosen == command::compare) {
    c.inputs.emplace_back(arg);
    return std::nullopt;
  }
  if (chosen == command::help && !c.help_topic) {
    const auto topic = find_command(arg);
    if (!topic) return join({"help: unknown command '", arg, "'"});
    c.help_topic = topic;
    return std::nullopt;
  }
  return join({"unexpected argument '", arg, "'"});
}

std::string not_for(const option& o, command chosen) {
  return join({"--", o.name, " does not apply to ", command_phrase(chosen), " (it is an option of ",
               commands_phrase(o.applies), ")"});
}

// Applies args[i] (and its value); advances i. Returns an error line or nullopt.
std::optional<std::string> apply(config& c, command chosen, std::span<const string_view> args,
                                 std::size_t& i) {
  string_view arg = args[i] == "-h" ? string_view("--help") : args[i];
  if (!arg.starts_with("--")) return positional(c, chosen, arg);
  arg.remove_prefix(2);
  std::optional<string_view> value;
  if (const auto eq = arg.find('='); eq != string_view::npos) {
    value = arg.substr(eq + 1);
    arg = arg.substr(0, eq);
  }
  const option* o = find_option(arg);
  if (o == nullptr) return join({"unknown option --", arg});
  if ((o->applies & bit(chosen)) == 0) return not_for(*o, chosen);
  if (o->value.empty()) {
    if (value) return join({"option --", arg, " takes no value"});
    return o->set(c, {});
  }
  if (!value) {
    if (i + 1 >= args.size()) return join({"option --", arg, " needs a value"});
    value = args[++i];
  }
  auto error = o->set(c, *value);
  if (error) return join({"--", arg, " ", *error, ", got '", *value, "'"});
  return std::nullopt;
}

// Applies one entry of a --config file, as if given on the command line.
std::optional<std::string> apply_entry(config& c, command chosen, const config_entry& e,
                                       const std::string& path) {
  const std::string at = path + ":" + std::to_string(e.line) + ": ";
  const option* o = find_option(e.name);
  if (o == nullptr || o->name == "config" || o->name == "help" || o->name == "version") {
    return at + join({"unknown option '", e.name, "'"});
  }
  if ((o->applies & bit(chosen)) == 0) return at + not_for(*o, chosen);
  if (o->value.empty() != !e.value.has_value()) {
    return at + join({e.name, o->value.empty() ? " is a flag: true or false"
                                               : " needs a value, not true or false"});
  }
  auto error = o->set(c, e.value.value_or(""));
  if (error) return at + join({e.name, " ", *error, ", got '", e.value.value_or(""), "'"});
  return std::nullopt;
}

// --config FILE anywhere on the command line: its entries, applied first (the command line
// overrides them).
std::optional<std::string> apply_config_file(config& c, command chosen,
                                             std::span<const string_view> args) {
  std::optional<std::string> path;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--config" && i + 1 < args.size()) path = std::string(args[i + 1]);
    if (args[i].starts_with("--config=")) path = std::string(args[i].substr(9));
  }
  if (!path) return std::nullopt;
  auto read = read_config_file(*path);
  if (auto* wrong = std::get_if<std::string>(&read)) return "--config " + *wrong;
  for (const config_entry& e : std::get<std::vector<config_entry>>(read)) {
    if (auto error = apply_entry(c, chosen, e, *path)) return error;
  }
  return std::nullopt;
}

// The command named first, if any; `i` moves past it.
std::optional<std::string> read_command(config& c, std::span<const string_view> args,
                                        std::size_t& i) {
  if (args.empty() || args[0].starts_with("-")) return std::nullopt;
  i = 1;
  if (args[0] == "help") {
    c.cmd = command::help;
    return std::nullopt;
  }
  const auto cmd = find_command(args[0]);
  if (!cmd) return join({"unknown command '", args[0], "'"});
  c.cmd = *cmd;
  return std::nullopt;
}

// --db on the command line replaces the config file's (all of them), as any option does.
void command_line_endpoints_win(config& c, std::size_t from_file) {
  if (from_file == 0 || c.endpoints.size() == from_file) return;
  c.endpoints.erase(c.endpoints.begin(),
                    c.endpoints.begin() + static_cast<std::ptrdiff_t>(from_file));
  c.db = c.endpoints.front();
}

}  // namespace

parse_result parse(std::span<const string_view> args) {
  config c;
  std::size_t i = 0;
  if (auto error = read_command(c, args, i)) return *error;
  const command chosen = c.cmd;
  if (auto error = apply_config_file(c, chosen, args.subspan(i))) return *error;
  const std::size_t from_file = c.endpoints.size();
  for (; i < args.size(); ++i) {
    auto error = apply(c, chosen, args, i);
    if (error) return *error;
  }
  command_line_endpoints_win(c, from_file);
  if (c.cmd == command::help && chosen != command::help && chosen != command::all) {
    c.help_topic = chosen;  // `run --help`: the help of run
  }
  if (c.cmd != command::help && c.cmd != command::version) c.cmd = chosen;
  if (auto missing = merge_inputs_given(c)) return *missing;
  if (auto wrong = sim_only_runs(c)) return *wrong;
  if (auto wrong = schedule_conflict(c)) return *wrong;
  if (auto wrong = rate_fits(c)) return *wrong;
  if (auto wrong = check_load_split(c)) return *wrong;
  if (auto wrong = procedures_need_a_server(c)) return *wrong;
  if (auto wrong = check_endpoints(c)) return *wrong;
  if (auto wrong = check_analytic_streams(c)) return *wrong;
  return c;
}

}  // namespace tpcc::cli
