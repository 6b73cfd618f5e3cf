// SPDX-License-Identifier: Apache-2.0
// app/tpcc/ui/live_display.cpp: the dashboard or plain lines (see live_display.hpp).
#include "ui/live_display.hpp"

#include <unistd.h>

#include <chrono>
#include <memory>
#include <utility>

#include "ui/load_screen.hpp"
#include "ui/run_screen.hpp"

namespace tpcc::ui {

display_mode choose_mode(bool progress, bool tui) {
  if (!progress) return display_mode::none;
  if (!tui || !is_terminal(STDOUT_FILENO) || !is_terminal(STDERR_FILENO)) {
    return display_mode::lines;
  }
  return display_mode::dashboard;
}

live_display::live_display(display_mode mode) : mode_(mode) {
  if (mode_ != display_mode::dashboard) return;
  std::fflush(stdout);
  capture_ = std::make_unique<stderr_capture>();
  screen_ = std::make_unique<tty_screen>(STDOUT_FILENO);
  screen_->enter();
  open_ = true;
}

live_display::~live_display() { close(); }

std::string live_display::tick(const frame_fn& frame, const line_fn& line) {
  if (mode_ == display_mode::lines) return line();
  const std::scoped_lock lock(mutex_);
  if (!open_) return {};
  const screen_size size = screen_->size();
  screen_->draw(frame(size, capture_->tail(size.rows)));
  return {};
}

void live_display::close() {
  const std::scoped_lock lock(mutex_);
  if (!open_) return;
  open_ = false;
  screen_->leave();
  capture_->restore();
}

std::function<std::string()> load_reporter(live_display& d, const loader::load_progress& p,
                                           std::string target) {
  auto last_line = std::make_shared<std::chrono::steady_clock::time_point>();
  return [&d, &p, target = std::move(target), last_line] {
    const load_screen s{p.snapshot(), target};
    return d.tick([&s](screen_size size, const auto& log) { return render_load(s, size, log); },
                  [&s, &last_line] {
                    const auto now = std::chrono::steady_clock::now();
                    if (now - *last_line < load_line_interval) return std::string();
                    *last_line = now;
                    return load_line(s.progress);
                  });
  };
}

std::function<std::string()> run_reporter(live_display& d, const run::run_control& c,
                                          run_screen settings) {
  return [&d, &c, settings = std::move(settings)] {
    const std::optional<run::live_view> view = c.live();
    if (!view) {
      return d.tick(
          [&settings](screen_size size, const auto& log) {
            return render_starting(settings.target, size, log);
          },
          [] { return std::string(); });
    }
    run_screen s = settings;
    s.view = *view;
    if (const std::optional<run::ch_totals> ch = c.analytic()) {
      s.ch = figures::ch_live{ch->streams, ch->completed(), ch->failed(), ch->cancelled()};
    }
    return d.tick([&s](screen_size size, const auto& log) { return render_run(s, size, log); },
                  [&s] { return run_line(s); });
  };
}

}  // namespace tpcc::ui
