// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/display.hpp: the live display of one command (the dashboard, or plain lines:
// ui/live_display.hpp) wired to the console.
//
// What: the console's reporter renders the display, and a second Ctrl-C gives the terminal
// back before the exit. close() (or the destructor) unwires it and gives the terminal back, so
// what follows prints on the normal screen.
// Lifetime: outlives every reporter given to report(); the console outlives it.
#pragma once

#include <functional>
#include <string>

#include "cli/config.hpp"
#include "cli/console.hpp"
#include "ui/live_display.hpp"

namespace tpcc::commands {

class shown_display {
 public:
  /// Chooses the mode from --no-progress and --no-tui.
  shown_display(cli::console& console, const cli::config& cfg);
  shown_display(const shown_display&) = delete;
  shown_display& operator=(const shown_display&) = delete;
  ~shown_display() { close(); }

  ui::live_display& display() { return display_; }
  /// The console's reporter from now on (it renders display()).
  void report(std::function<std::string()> reporter);
  /// Unwires the console and gives the terminal back. Idempotent.
  void close();

 private:
  cli::console& console_;
  ui::live_display display_;
};

}  // namespace tpcc::commands
