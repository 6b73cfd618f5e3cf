// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/display.cpp: a command's live display on the console (see display.hpp).
#include "commands/display.hpp"

#include <utility>

namespace tpcc::commands {

shown_display::shown_display(cli::console& console, const cli::config& cfg)
    : console_(console), display_(ui::choose_mode(cfg.progress, cfg.tui)) {
  console_.set_before_exit([this] { display_.close(); });
}

void shown_display::report(std::function<std::string()> reporter) {
  console_.set_reporter(std::move(reporter));
}

void shown_display::close() {
  console_.clear_reporter();
  console_.set_before_exit(nullptr);
  display_.close();
}

}  // namespace tpcc::commands
