// SPDX-License-Identifier: Apache-2.0
// tests/app/metrics/scrape.hpp: the shoal-tpcc binary run in the background and its metrics
// endpoint scraped over a real socket, for the tests that watch a run as Prometheus would.
//
// What: background_run starts SHOAL_TPCC_BINARY with the arguments (stdout and stderr to files of
// a temp_dir), finds the port it prints for --metrics-addr, and waits for it or kills it when
// destroyed. http_get() is one HTTP exchange on a blocking socket; body_of() its body.
// Thread-safety: one thread per object; the functions are independent.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "support/temp_dir.hpp"

namespace tpcc::testing {

// The whole text of a file; empty when it cannot be read.
[[nodiscard]] std::string file_text(const std::string& path);

// shoal-tpcc started in the background, stdout and stderr to files of `dir`.
class background_run {
 public:
  background_run(const temp_dir& dir, const std::vector<std::string>& args);
  background_run(const background_run&) = delete;
  background_run& operator=(const background_run&) = delete;
  ~background_run();

  // The port of "metrics: http://127.0.0.1:PORT/metrics" on stderr, once printed (30 s at most).
  [[nodiscard]] std::optional<int> metrics_port();
  void interrupt() const;
  // The exit status, once it has ended (within `limit`); -1 when it did not, or was killed.
  int wait(std::chrono::seconds limit);
  [[nodiscard]] std::string stderr_text() const { return file_text(err_); }
  [[nodiscard]] std::string stdout_text() const { return file_text(out_); }

 private:
  bool running();

  std::string out_, err_;
  pid_t pid_ = -1;
  int status_ = 0;
  bool exited_ = false;
};

// One HTTP exchange on a plain blocking socket; nullopt when nothing listens on the port.
[[nodiscard]] std::optional<std::string> http_get(int port, const std::string& path);
// The body of an HTTP response (after the blank line); empty without one.
[[nodiscard]] std::string body_of(const std::string& response);

}  // namespace tpcc::testing
