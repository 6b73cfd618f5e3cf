// SPDX-License-Identifier: Apache-2.0
// app/tpcc/ui/live_display.hpp: what the user watches while a command loads or runs: the
// dashboard on a terminal, a plain line per interval otherwise.
//
// What: choose_mode() picks the display: none with --no-progress; plain lines with --no-tui or
// when stdout or stderr is not a terminal (a pipe, a file, TERM=dumb); else the dashboard. A
// live_display in dashboard mode captures stderr (stderr_capture.hpp) and takes the terminal's
// alternate screen (tty.hpp) from construction to close(); each tick() renders a frame from
// snapshots and draws it. close() gives the terminal back (normal screen, cursor, echo) and
// then writes out everything stderr received meanwhile. The reporters adapt it to the
// console's once-a-second callback: they take a snapshot (load_progress::snapshot,
// run_control::live) and render it; they never touch live counters.
// Lifetime: close() (or the destructor) before the program prints its results or exits; the
// reporters refer to the display and the progress or control: clear them from the console
// before those go.
// Thread-safety: tick() and close() from any threads (serialised inside); close() is
// idempotent, so an emergency exit (a second Ctrl-C) may call it while the owner also does.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "figures/run_figures.hpp"
#include "loader/progress.hpp"
#include "run/run.hpp"
#include "ui/stderr_capture.hpp"
#include "ui/text.hpp"
#include "ui/tty.hpp"

namespace tpcc::ui {

using figures::run_screen;  // the snapshot the display draws (figures/run_figures.hpp)

enum class display_mode : std::uint8_t { none, lines, dashboard };

[[nodiscard]] display_mode choose_mode(bool progress, bool tui);

class live_display {
 public:
  using frame_fn =
      std::function<std::vector<std::string>(screen_size, const std::vector<std::string>&)>;
  using line_fn = std::function<std::string()>;

  explicit live_display(display_mode mode);
  live_display(const live_display&) = delete;
  live_display& operator=(const live_display&) = delete;
  ~live_display();

  [[nodiscard]] display_mode mode() const noexcept { return mode_; }
  // Dashboard: draws frame(size, last stderr lines) and returns ""; lines: returns line();
  // none, or once closed: "".
  std::string tick(const frame_fn& frame, const line_fn& line);
  void close();

 private:
  const display_mode mode_;
  std::mutex mutex_;
  bool open_ = false;                        // guarded by mutex_
  std::unique_ptr<stderr_capture> capture_;  // dashboard only
  std::unique_ptr<tty_screen> screen_;       // dashboard only
};

// The loader's plain lines come at most this often (they are long: one part per table).
inline constexpr std::chrono::seconds load_line_interval{2};

// Console reporters (std::function<std::string()>) for the loader and the run. `target` and
// `settings.target` name the database (redacted); `settings.view` is ignored. The loader's
// reporter returns "" (nothing to print) until load_line_interval has passed since its last
// line.
[[nodiscard]] std::function<std::string()> load_reporter(live_display& d,
                                                         const loader::load_progress& p,
                                                         std::string target);
[[nodiscard]] std::function<std::string()> run_reporter(live_display& d, const run::run_control& c,
                                                        run_screen settings);

}  // namespace tpcc::ui
