// SPDX-License-Identifier: Apache-2.0
// A throwaway PostgreSQL server for tests (postgres_server.hpp).
#include "testing/postgres_server.hpp"
#include "testing/required_in_ci.hpp"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace tpcc::testing {

namespace {

namespace fs = std::filesystem;

constexpr int socket_port = 5432;  // only names the socket file; nothing listens on TCP

bool running_as_root() { return ::geteuid() == 0; }

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::string postgres_server::bin_dir() {
  if (const char* env = std::getenv("SHOAL_PG_BIN"); env != nullptr && *env != '\0') return env;
  std::string best;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", ec)) {
    const fs::path bin = entry.path() / "bin";
    if (!fs::exists(bin / "initdb") || !fs::exists(bin / "pg_ctl")) continue;
    // Versions as directory names: compare numerically.
    const std::string version = entry.path().filename().string();
    if (best.empty() ||
        std::atoi(version.c_str()) > std::atoi(fs::path(best).parent_path().filename().c_str())) {
      best = bin.string();
    }
  }
  return best;
}

bool postgres_server::available() {
  const std::string bin = bin_dir();
  const bool found = !bin.empty() && fs::exists(fs::path(bin) / "initdb") &&
                     (!running_as_root() || ::getpwnam("postgres") != nullptr);
  if (!found) require_in_ci("the PostgreSQL server (its binaries, or the postgres user as root)");
  return found;
}

void postgres_server::run(const std::string& command, bool as_server_user) const {
  const std::string log = dir_ + "/command.log";
  std::string line = command;
  if (as_server_user && running_as_root()) line = "runuser -u postgres -- " + line;
  line += " >" + log + " 2>&1";
  if (std::system(line.c_str()) != 0) {
    throw std::runtime_error("postgres_server: `" + command + "` failed:\n" + read_file(log));
  }
}

postgres_server::postgres_server(const postgres_server_options& options) {
  if (!available()) throw std::runtime_error("postgres_server: PostgreSQL binaries not found");
  std::string pattern = (fs::temp_directory_path() / "shoal-pg-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("postgres_server: mkdtemp");
  dir_ = pattern;
  data_ = dir_ + "/data";
  try {
    if (running_as_root()) {
      const passwd* pw = ::getpwnam("postgres");
      if (::chown(dir_.c_str(), pw->pw_uid, pw->pw_gid) != 0) {
        throw std::runtime_error("postgres_server: cannot chown " + dir_);
      }
    }
    const std::string bin = bin_dir();
    run(bin + "/initdb -D " + data_ + " -U postgres -A trust -E UTF8 --locale=C --no-sync", true);
    {
      std::ofstream conf(data_ + "/postgresql.conf", std::ios::app);
      conf << "listen_addresses = ''\n"
           << "unix_socket_directories = '" << dir_ << "'\n"
           << "port = " << socket_port << "\n"
           << "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
           << "max_connections = 200\n";
      for (const std::string& line : options.settings) conf << line << "\n";
      std::ofstream hba(data_ + "/pg_hba.conf", std::ios::trunc);
      hba << "local all " << password_user() << " scram-sha-256\n"
          << "local all all trust\n";
    }
    start();
    sql("CREATE ROLE " + password_user() + " LOGIN SUPERUSER PASSWORD '" + password() + "'");
  } catch (...) {
    stop();
    throw;
  }
}

postgres_server::~postgres_server() { stop(); }

void postgres_server::stop() noexcept {
  if (started_) {
    try {
      run(bin_dir() + "/pg_ctl -D " + data_ + " -m immediate -w -t 60 stop", true);
      started_ = false;
    } catch (...) {
      started_ = false;  // best effort: the directory is removed all the same
    }
  }
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

std::string postgres_server::conninfo(const std::string& user) const {
  return "host=" + dir_ + " port=" + std::to_string(socket_port) + " user=" + user +
         " dbname=postgres";
}

std::string postgres_server::uri(const std::string& user, const std::string& password) const {
  std::string auth = user;
  if (!password.empty()) auth += ":" + password;
  return "postgresql://" + auth + "@/postgres?host=" + dir_ +
         "&port=" + std::to_string(socket_port);
}

std::string postgres_server::sql(const std::string& statements) const {
  const std::string file = dir_ + "/input.sql";
  std::ofstream(file, std::ios::trunc) << statements << ";\n";
  const std::string out = dir_ + "/output.txt";
  run(bin_dir() + "/psql -X -q -At -v ON_ERROR_STOP=1 -h " + dir_ + " -p " +
          std::to_string(socket_port) + " -U postgres -d postgres -f " + file + " -o " + out,
      false);
  return read_file(out);
}

void postgres_server::restart() const {
  run(bin_dir() + "/pg_ctl -D " + data_ + " -l " + dir_ + "/server.log -m fast -w -t 60 restart",
      true);
}

void postgres_server::stop_now() {
  run(bin_dir() + "/pg_ctl -D " + data_ + " -m immediate -w -t 60 stop", true);
  started_ = false;
}

void postgres_server::start() {
  run(bin_dir() + "/pg_ctl -D " + data_ + " -l " + dir_ + "/server.log -w -t 60 start", true);
  started_ = true;
}

std::string postgres_server::log() const { return read_file(dir_ + "/server.log"); }

}  // namespace tpcc::testing
