// SPDX-License-Identifier: Apache-2.0
// tests/app/ui/tmux.hpp: a terminal a test can look at: a private tmux server (its own socket,
// no user configuration) with one pane of a fixed size.
//
// What: start() runs a shell command in the pane; every byte the command writes to the pane is
// also appended to a file from its very first byte (pipe-pane is attached before the command
// is released), so a test can check the escape sequences themselves. screen() is what a person
// sees now (capture-pane), history() adds what scrolled off. After the command, the pane
// prints "shoal-tpcc-exit=STATUS" and stays open. The destructor kills the server.
// Thread-safety: one thread.
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace tpcc::testing {

// Whether `screen` holds `text`.
inline bool shows(const std::string& screen, const std::string& text) {
  return screen.find(text) != std::string::npos;
}

class tmux_session {
 public:
  [[nodiscard]] static bool available();

  tmux_session(std::size_t columns, std::size_t rows);
  tmux_session(const tmux_session&) = delete;
  tmux_session& operator=(const tmux_session&) = delete;
  ~tmux_session();

  void start(const std::string& command);
  [[nodiscard]] std::string screen() const;
  [[nodiscard]] std::string history() const;
  [[nodiscard]] std::string raw() const;  // every byte written to the pane
  void send_keys(const std::string& keys) const;
  // Looks at the screen every 100 ms until `seen(screen)`; the last screen looked at.
  std::string wait_for(const std::function<bool(const std::string&)>& seen,
                       std::chrono::seconds limit) const;
  // Waits for the command to end; its exit status, or -1 after `limit`.
  int wait_exit(std::chrono::seconds limit) const;

 private:
  std::string tmux(const std::string& args) const;  // its output

  std::string socket_;
  std::string raw_path_;
  std::size_t columns_, rows_;
};

// `text` quoted for sh.
[[nodiscard]] std::string shell_quote(const std::string& text);

}  // namespace tpcc::testing
