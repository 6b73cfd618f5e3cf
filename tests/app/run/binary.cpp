// SPDX-License-Identifier: Apache-2.0
// tests/app/run/binary.cpp: fork, exec and wait with a time limit (see binary.hpp).
#include "binary.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace tpcc::testing {
namespace {

std::string slurp(const std::string& path) {
  const std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string temp_path(const char* what) {
  std::string path = std::string("/tmp/shoal-tpcc-test-") + what + "-XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd < 0) throw std::runtime_error("mkstemp failed");
  close(fd);
  return path;
}

[[noreturn]] void exec_child(const std::vector<std::string>& args, const std::string& out,
                             const std::string& err) {
  const int o = open(out.c_str(), O_WRONLY | O_TRUNC);
  const int e = open(err.c_str(), O_WRONLY | O_TRUNC);
  dup2(o, STDOUT_FILENO);
  dup2(e, STDERR_FILENO);
  std::vector<char*> argv;
  std::string binary = SHOAL_TPCC_BINARY;
  argv.push_back(binary.data());
  std::vector<std::string> copy = args;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  execv(binary.c_str(), argv.data());
  _exit(127);
}

}  // namespace

binary_result run_binary(const std::vector<std::string>& args, std::chrono::seconds limit,
                         std::optional<std::chrono::milliseconds> interrupt_after, int signal) {
  const std::string out = temp_path("out");
  const std::string err = temp_path("err");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) exec_child(args, out, err);
  binary_result r;
  const auto start = std::chrono::steady_clock::now();
  bool interrupted = false;
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    const auto waited = std::chrono::steady_clock::now() - start;
    if (interrupt_after && !interrupted && waited >= *interrupt_after) {
      kill(pid, signal);
      interrupted = true;
    }
    if (waited >= limit) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!r.timed_out && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  r.out = slurp(out);
  r.err = slurp(err);
  std::remove(out.c_str());
  std::remove(err.c_str());
  return r;
}

std::string describe(const binary_result& r) {
  std::string text = "exit ";
  text.append(std::to_string(r.exit_code)).append("\n--- stdout\n").append(r.out);
  return text.append("\n--- stderr\n").append(r.err);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

void expect_refused(const std::vector<std::string>& args, const std::string& says) {
  const binary_result r = run_binary(args);
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, says)) << "expected '" << says << "' in: " << r.err;
  EXPECT_FALSE(contains(r.out, "shoal-tpcc result")) << r.out;  // nothing ran
}

std::string one_warehouse_sqlite(const std::string& file, bool& ok) {
  const std::string db = "sqlite:" + file;
  binary_result r = run_binary({"init", "--db", db});
  if (r.exit_code == 0) {
    r = run_binary({"load", "--db", db, "--warehouses", "1", "--no-progress"},
                   std::chrono::seconds(300));
  }
  ok = r.exit_code == 0;
  EXPECT_TRUE(ok) << describe(r);
  return db;
}

}  // namespace tpcc::testing
