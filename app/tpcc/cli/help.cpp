// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/help.cpp: the general and per-command help (see help.hpp).
#include "cli/help.hpp"

#include <initializer_list>
#include <string_view>

#include "cli/option_table.hpp"
#include "cli/values.hpp"

namespace tpcc::cli {
namespace {

using std::string_view;

// The options of `set`, one per line: name, value, help (with its default).
std::string option_lines(command_set set) {
  std::string out;
  for (const option& o : option_table()) {
    if ((o.applies & set) == 0 || o.name == "version") continue;
    std::string left = join({"  --", o.name});
    if (!o.value.empty()) left += join({" ", o.value});
    if (left.size() < 26) left.resize(26, ' ');
    out += join({left, " ", o.help, "\n"});
  }
  return out;
}

constexpr string_view exit_statuses =
    "\nExit status:\n"
    "  0    done; for run: the verdict is PASS or INCONCLUSIVE and no transaction failed\n"
    "       with a non-retryable error (or --tolerate-errors)\n"
    "  1    could not do what was asked: database unreachable or refused, stopped by an\n"
    "       error, a check that failed, an output file that could not be written\n"
    "  2    bad input: an unknown command or option, an option the command does not take,\n"
    "       a malformed value or result file, an output path that cannot be written, a\n"
    "       --metrics-addr that cannot be listened on\n"
    "  3    run: the verdict FAILED, or transactions failed with non-retryable errors\n"
    "       (each error is printed once with its SQLSTATE and counted in every output),\n"
    "       or an endpoint of several (--db more than once) lost transactions\n"
    "  4    compare --fail-if-slower PCT: a later file is slower than the first beyond noise\n"
    "       by more than PCT % (its tpmC lower, or a type's p90 higher)\n"
    "  130  interrupted by Ctrl-C (SIGINT); the results so far are reported\n"
    "  143  terminated by SIGTERM; the results so far are reported\n";

}  // namespace

std::string usage() {
  std::string out =
      "Usage: shoal-tpcc [COMMAND] [OPTIONS]\n"
      "A TPC-C load generator: every terminal a coroutine.\n\n"
      "With no command: init, load, run, check and clean on an embedded SQLite file.\n\n"
      "Commands (shoal-tpcc help COMMAND, or COMMAND --help, shows one with its options):\n";
  for (const command_info& c : command_table()) {
    if (c.name.empty()) continue;
    out += join({"  ", c.name, std::string(8 - c.name.size(), ' '), c.help, "\n"});
  }
  out += "\nOptions:\n";
  out += option_lines(0xFFFF);
  out += "  --version                Show the version\n";
  out += "\nExample:\n  " + std::string(describe(command::all).example) + "\n";
  out += exit_statuses;
  return out;
}

std::string usage(command cmd) {
  const command_info& c = describe(cmd);
  std::string out = c.name.empty()
                        ? std::string("Usage: shoal-tpcc [OPTIONS]\n")
                        : join({"Usage: shoal-tpcc ", c.name, " [OPTIONS]",
                                cmd == command::merge ? " FILE.json..." : "",
                                cmd == command::compare ? " A.json B.json [C.json...]" : "", "\n"});
  out += join({c.help, ".\n\nOptions:\n"});
  out += option_lines(bit(cmd));
  out += join({"\nExample:\n  ", c.example, "\n"});
  out += exit_statuses;
  return out;
}

}  // namespace tpcc::cli
