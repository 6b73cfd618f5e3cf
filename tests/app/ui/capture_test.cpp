// SPDX-License-Identifier: Apache-2.0
// tests/app/ui/capture_test.cpp: stderr captured while a dashboard is up loses nothing: it is
// kept off the real stderr, its last lines are there for the log pane, and everything is
// written to the real stderr, in order, once restored.
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "ui/stderr_capture.hpp"

namespace tpcc::ui {
namespace {

// Points fd 2 at a fresh file for the test's life, then back.
class stderr_to_file {
 public:
  stderr_to_file() : path_("/tmp/shoal-tpcc-ui-capture-XXXXXX") {
    const int fd = mkstemp(path_.data());
    std::fflush(stderr);
    saved_ = dup(STDERR_FILENO);
    dup2(fd, STDERR_FILENO);
    close(fd);
  }
  stderr_to_file(const stderr_to_file&) = delete;
  stderr_to_file& operator=(const stderr_to_file&) = delete;
  ~stderr_to_file() {
    std::fflush(stderr);
    dup2(saved_, STDERR_FILENO);
    close(saved_);
    unlink(path_.c_str());
  }
  [[nodiscard]] std::string text() const {
    const std::ifstream in(path_);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }

 private:
  std::string path_;
  int saved_ = -1;
};

TEST(stderr_capture, KeepsWritesOffStderrThenReplaysThemAll) {
  const stderr_to_file real;
  stderr_capture capture(3);
  ASSERT_TRUE(capture.active());
  std::fprintf(stderr, "first line\n");
  std::thread([] { std::fprintf(stderr, "from another thread\n"); }).join();
  const std::string direct = "written to fd 2\nno newline at the end";
  ASSERT_EQ(write(STDERR_FILENO, direct.data(), direct.size()),
            static_cast<ssize_t>(direct.size()));
  EXPECT_EQ(real.text(), "");  // nothing reached the real stderr yet
  capture.restore();
  EXPECT_EQ(real.text(), "first line\nfrom another thread\nwritten to fd 2\nno newline at the end");
  const auto tail = capture.tail(10);  // the last 3 kept
  ASSERT_EQ(tail.size(), 3u);
  EXPECT_EQ(tail[0], "from another thread");
  EXPECT_EQ(tail[2], "no newline at the end");
  EXPECT_EQ(capture.tail(1).at(0), "no newline at the end");
  std::fprintf(stderr, "after\n");  // stderr is the real one again
  capture.restore();                // idempotent
  EXPECT_EQ(real.text().substr(real.text().size() - 6), "after\n");
}

TEST(stderr_capture, MoreThanAPipeHoldsIsNotLost) {
  const stderr_to_file real;
  std::string expected;
  {
    stderr_capture capture;
    for (int i = 0; i < 20000; ++i) {
      const std::string line = "line " + std::to_string(i) + " " + std::string(60, 'x') + "\n";
      expected += line;
      std::fputs(line.c_str(), stderr);
    }
    EXPECT_EQ(capture.tail(1).size(), 1u);
  }  // the destructor restores
  EXPECT_EQ(real.text().size(), expected.size());  // 1.4 MB through a 64 KiB pipe
  EXPECT_EQ(real.text(), expected);
}

}  // namespace
}  // namespace tpcc::ui
