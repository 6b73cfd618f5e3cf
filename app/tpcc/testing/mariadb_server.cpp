// SPDX-License-Identifier: Apache-2.0
// A throwaway MariaDB server for tests (mariadb_server.hpp).
#include "testing/mariadb_server.hpp"
#include "testing/required_in_ci.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace tpcc::testing {

namespace {

namespace fs = std::filesystem;

bool running_as_root() { return ::geteuid() == 0; }

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

constexpr const char* server_binary = "/usr/sbin/mariadbd";
constexpr const char* install_binary = "/usr/bin/mariadb-install-db";
constexpr const char* client_binary = "/usr/bin/mariadb";

std::string user_option() { return running_as_root() ? " --user=root" : ""; }

}  // namespace

bool mariadb_server::available() {
  const bool found =
      fs::exists(server_binary) && fs::exists(install_binary) && fs::exists(client_binary);
  if (!found) require_in_ci("the MariaDB server (mariadbd, mariadb-install-db or mariadb)");
  return found;
}

std::unique_ptr<mariadb_server> mariadb_server::start_one() {
  std::string failures;
  for (int attempt = 1; attempt <= 2; ++attempt) {
    try {
      return std::make_unique<mariadb_server>();
    } catch (const std::exception& e) {
      failures += "attempt " + std::to_string(attempt) + ": " + e.what() + "\n";
      std::cerr << "mariadb_server: " << failures;
    }
  }
  throw std::runtime_error("mariadb_server: could not start:\n" + failures);
}

void mariadb_server::run(const std::string& command) const {
  const std::string log = dir_ + "/command.log";
  const std::string line = command + " >" + log + " 2>&1";
  if (std::system(line.c_str()) != 0) {
    throw std::runtime_error("mariadb_server: `" + command + "` failed:\n" + read_file(log));
  }
}

mariadb_server::mariadb_server() {
  if (!available()) throw std::runtime_error("mariadb_server: MariaDB binaries not found");
  std::string pattern = (fs::temp_directory_path() / "shoal-my-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mariadb_server: mkdtemp");
  dir_ = pattern;
  socket_ = dir_ + "/sock";
  try {
    run(std::string(install_binary) + " --no-defaults --datadir=" + dir_ +
        "/data --auth-root-authentication-method=normal --skip-test-db --skip-name-resolve" +
        user_option());
    start();
    query("CREATE DATABASE IF NOT EXISTS tpcc; CREATE USER '" + password_user() +
              "'@'localhost' IDENTIFIED BY '" + password() + "'; GRANT ALL ON tpcc.* TO '" +
              password_user() + "'@'localhost';",
          "");
  } catch (...) {
    kill_server();
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
    throw;
  }
}

mariadb_server::~mariadb_server() {
  kill_server();
  std::error_code ignored;
  fs::remove_all(dir_, ignored);
}

void mariadb_server::start() {
  std::vector<std::string> args{server_binary,
                                "--no-defaults",
                                "--datadir=" + dir_ + "/data",
                                "--socket=" + socket_,
                                "--skip-networking",
                                "--pid-file=" + dir_ + "/pid",
                                "--log-error=" + dir_ + "/error.log",
                                "--skip-name-resolve",
                                "--innodb-buffer-pool-size=256M",
                                "--innodb-log-file-size=128M",
                                "--innodb-flush-log-at-trx-commit=0",
                                "--innodb-doublewrite=0",
                                "--skip-log-bin",
                                "--max-connections=200",
                                "--innodb-lock-wait-timeout=5"};
  if (running_as_root()) args.emplace_back("--user=root");
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t child = ::fork();
  if (child < 0) throw std::runtime_error("mariadb_server: fork failed");
  if (child == 0) {
    // The server dies with the thread that started it: a test that crashes leaves none behind.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    const int null = ::open("/dev/null", O_RDWR);
    if (null >= 0) {
      ::dup2(null, 0);
      ::dup2(null, 1);
      ::dup2(null, 2);
    }
    ::execv(server_binary, argv.data());
    ::_exit(127);
  }
  pid_ = child;
  const std::string ping = std::string("/usr/bin/mariadb-admin --no-defaults --socket=") + socket_ +
                           " -u root ping >/dev/null 2>&1";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::system(ping.c_str()) != 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      throw std::runtime_error("mariadb_server: no answer within 60 s:\n" + log());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

void mariadb_server::kill_server() noexcept {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  // Reaped before returning, so that a restart does not race it for the data directory.
  ::waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

void mariadb_server::stop_now() { kill_server(); }

std::string mariadb_server::uri(const std::string& user, const std::string& password) const {
  std::string out = "mysql://" + user;
  if (!password.empty()) out += ":" + password;
  return out + "@localhost/tpcc?socket=" + socket_;
}

std::string mariadb_server::sql(const std::string& statements) const {
  return query(statements, "tpcc");
}

std::string mariadb_server::query(const std::string& statements,
                                  const std::string& database) const {
  const std::string input = dir_ + "/input.sql";
  const std::string output = dir_ + "/output.txt";
  {
    std::ofstream out(input);
    out << statements << '\n';
  }
  const std::string command = std::string(client_binary) + " --no-defaults --socket=" + socket_ +
                              " -u root -N -B " + database + " <" + input + " >" + output + " 2>&1";
  if (std::system(command.c_str()) != 0) {
    throw std::runtime_error("mariadb_server: SQL failed:\n" + statements + "\n" +
                             read_file(output));
  }
  return read_file(output);
}

std::string mariadb_server::log() const { return read_file(dir_ + "/error.log"); }

}  // namespace tpcc::testing
