// SPDX-License-Identifier: Apache-2.0
// app/tpcc/ui/tty.hpp: drawing full-screen frames on a terminal with plain ANSI sequences.
//
// What: enter() switches the terminal to its alternate screen (what was on the normal screen
// comes back untouched at the end), hides the cursor and turns off the echo of typed keys (so
// nothing typed tears a frame). draw() writes one frame: each line over the previous frame's
// (cursor home, each line then clear-to-end-of-line, clear below), so a frame never flickers
// through a blank screen. leave() undoes enter() in reverse. size() asks the terminal
// (ioctl TIOCGWINSZ) on every call, so a resized window is honoured at the next frame.
// Lifetime: leave() (or the destructor) restores the terminal; call it before exiting.
// Thread-safety: none; the owner serialises every call.
#pragma once

#include <termios.h>

#include <string>
#include <vector>

#include "ui/text.hpp"

namespace tpcc::ui {

// fd refers to a terminal that can show a dashboard (not TERM=dumb).
[[nodiscard]] bool is_terminal(int fd);

class tty_screen {
 public:
  explicit tty_screen(int fd);
  tty_screen(const tty_screen&) = delete;
  tty_screen& operator=(const tty_screen&) = delete;
  ~tty_screen();

  void enter();
  void draw(const std::vector<std::string>& lines);
  void leave();  // idempotent
  [[nodiscard]] screen_size size() const;

 private:
  void write_text(const std::string& s) const;

  const int fd_;
  bool entered_ = false;
  bool echo_saved_ = false;
  termios saved_{};
};

}  // namespace tpcc::ui
