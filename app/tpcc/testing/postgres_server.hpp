// SPDX-License-Identifier: Apache-2.0
// postgres_server.hpp: a throwaway PostgreSQL server for one test process.
//
// What: initdb into a fresh temporary directory, then pg_ctl start with the server listening
// only on a Unix socket in that directory (listen_addresses = ''), fsync off. When running as
// root the server runs as the `postgres` user (initdb refuses root): the directory is handed to
// it and every server command goes through runuser. The destructor stops the server by its data
// directory (pg_ctl stop -m immediate) and removes the directory; a constructor that fails half
// way does the same before throwing.
// `postgres_server_options::settings` adds lines to postgresql.conf (a Citus node:
// shared_preload_libraries = 'citus'); stop_now() and start() stop a running server the hard way
// (pg_ctl stop -m immediate, as a crashed node) and bring it back, for tests of node loss.
// Authentication: trust for every role but `password_user` (password `password()`), which
// needs scram-sha-256, for the wrong-password tests.
//
// available() is false when the PostgreSQL server binaries are not installed (tests then skip).
// Binaries: $SHOAL_PG_BIN, else the newest /usr/lib/postgresql/*/bin.
// Thread-safety: one thread; commands block until done.
#pragma once

#include <string>
#include <vector>

namespace tpcc::testing {

struct postgres_server_options {
  std::vector<std::string> settings;  // extra postgresql.conf lines
};

class postgres_server {
 public:
  [[nodiscard]] static bool available();
  [[nodiscard]] static std::string bin_dir();

  postgres_server() : postgres_server(postgres_server_options{}) {}
  // Throws std::runtime_error with the command and its log on failure.
  explicit postgres_server(const postgres_server_options& options);
  postgres_server(const postgres_server&) = delete;
  postgres_server& operator=(const postgres_server&) = delete;
  ~postgres_server();

  // Key/value connection string for `user` (trust auth unless it is password_user).
  [[nodiscard]] std::string conninfo(const std::string& user = "postgres") const;
  // The same as a URI: postgresql://user[:password]@/postgres?host=DIR
  [[nodiscard]] std::string uri(const std::string& user, const std::string& password) const;
  [[nodiscard]] const std::string& socket_dir() const noexcept { return dir_; }
  [[nodiscard]] static std::string password_user() { return "password_user"; }
  [[nodiscard]] static std::string password() { return "s3cret-Pa55word"; }

  // Runs SQL as the superuser through psql; returns its output (-At). Throws on failure.
  std::string sql(const std::string& statements) const;
  // pg_ctl restart -m fast: every connection is terminated; the server is back when it returns.
  void restart() const;
  // pg_ctl stop -m immediate (no shutdown checkpoint, clients cut off); start() brings it back.
  void stop_now();
  void start();
  // The server's log so far.
  [[nodiscard]] std::string log() const;

 private:
  void run(const std::string& command, bool as_server_user) const;
  void stop() noexcept;

  std::string dir_;   // temporary directory: data/, the socket, log files
  std::string data_;  // the data directory
  bool started_ = false;
};

}  // namespace tpcc::testing
