// SPDX-License-Identifier: Apache-2.0
// app/tpcc/ui/tty.cpp: ANSI frames on a terminal (see tty.hpp).
#include "ui/tty.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string_view>

namespace tpcc::ui {
namespace {

constexpr std::string_view enter_sequence = "\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J";
constexpr std::string_view leave_sequence = "\x1b[?25h\x1b[?1049l";
constexpr std::string_view home = "\x1b[H";
constexpr std::string_view clear_line = "\x1b[K";
constexpr std::string_view clear_below = "\x1b[J";

}  // namespace

bool is_terminal(int fd) {
  if (::isatty(fd) == 0) return false;
  const char* term = std::getenv("TERM");  // NOLINT(concurrency-mt-unsafe): read only
  return term != nullptr && std::string_view(term) != "dumb" && *term != '\0';
}

tty_screen::tty_screen(int fd) : fd_(fd) {}

tty_screen::~tty_screen() { leave(); }

void tty_screen::enter() {
  if (entered_) return;
  if (::isatty(STDIN_FILENO) != 0 && ::tcgetattr(STDIN_FILENO, &saved_) == 0) {
    termios quiet = saved_;
    quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
    echo_saved_ = ::tcsetattr(STDIN_FILENO, TCSANOW, &quiet) == 0;
  }
  write_text(std::string(enter_sequence));
  entered_ = true;
}

void tty_screen::draw(const std::vector<std::string>& lines) {
  if (!entered_) return;
  std::string frame(home);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    frame += lines[i];
    frame += clear_line;
    if (i + 1 < lines.size()) frame += "\r\n";
  }
  frame += clear_below;
  write_text(frame);
}

void tty_screen::leave() {
  if (!entered_) return;
  write_text(std::string(leave_sequence));
  if (echo_saved_) ::tcsetattr(STDIN_FILENO, TCSANOW, &saved_);
  echo_saved_ = false;
  entered_ = false;
}

screen_size tty_screen::size() const {
  winsize w{};
  if (::ioctl(fd_, TIOCGWINSZ, &w) != 0 || w.ws_col == 0 || w.ws_row == 0) return {};
  return {w.ws_col, w.ws_row};
}

void tty_screen::write_text(const std::string& s) const {
  const char* data = s.data();
  std::size_t n = s.size();
  while (n > 0) {
    const ssize_t w = ::write(fd_, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    data += w;
    n -= static_cast<std::size_t>(w);
  }
}

}  // namespace tpcc::ui
