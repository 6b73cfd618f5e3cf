// SPDX-License-Identifier: Apache-2.0
// MariaDB Connector/C connection on shoal's reactor (connection.hpp).
#include "driver/mysql/connection.hpp"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stop_token>
#include <utility>

#include "driver/open.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/timeout.hpp"

namespace tpcc::driver::mysql {

namespace {

outcome connect_failure(const std::string& shown, unsigned error, const std::string& why) {
  // Wrong credentials or database: retrying will not help; anything else may be transient.
  const bool refused = error == 1045 || error == 1044 || error == 1049 || error == 1698;
  return outcome::make(refused ? outcome_kind::failed : outcome_kind::connection_lost, "",
                       "cannot connect to " + shown + ": " + why +
                           (error != 0 ? " (MySQL error " + std::to_string(error) + ")" : ""));
}

}  // namespace

const char* isolation_sql(isolation level) noexcept {
  switch (level) {
    case isolation::read_committed:
      return "READ COMMITTED";
    case isolation::repeatable_read:
      return "REPEATABLE READ";
    case isolation::serializable:
      return "SERIALIZABLE";
  }
  return "READ COMMITTED";
}

void apply_tls(MYSQL* handle, const uri& target) noexcept {
  if (target.mode == tls::off) return;
  const my_bool on = 1;
  mysql_options(handle, MYSQL_OPT_SSL_ENFORCE, &on);
  const my_bool verify = target.mode == tls::verified ? 1 : 0;
  mysql_options(handle, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, &verify);
  if (!target.ssl_ca.empty()) mysql_options(handle, MYSQL_OPT_SSL_CA, target.ssl_ca.c_str());
}

shoal::task<outcome> connection::connect(const uri& target, const std::string& shown,
                                         isolation level, std::chrono::milliseconds timeout) {
  close();
  mysql_ = mysql_init(nullptr);
  if (mysql_ == nullptr) co_return connect_failure(shown, 0, "out of memory");
  mysql_options(mysql_, MYSQL_OPT_NONBLOCK, nullptr);
  const unsigned seconds = static_cast<unsigned>((timeout.count() + 999) / 1000);
  mysql_options(mysql_, MYSQL_OPT_CONNECT_TIMEOUT, &seconds);
  mysql_options(mysql_, MYSQL_SET_CHARSET_NAME, "utf8mb4");
  mysql_options(mysql_, MYSQL_INIT_COMMAND,
                "SET autocommit = 0, default_storage_engine = InnoDB, "
                "sql_mode = 'STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION'");
  const std::string isolation_command =
      std::string("SET SESSION TRANSACTION ISOLATION LEVEL ") + isolation_sql(level);
  mysql_options(mysql_, MYSQL_INIT_COMMAND, isolation_command.c_str());
  apply_tls(mysql_, target);
  const char* socket = target.socket.empty() ? nullptr : target.socket.c_str();
  // With a socket, "localhost" means "the Unix socket" to Connector/C.
  const char* host = socket != nullptr ? "localhost" : target.host.c_str();
  unsigned long flags = CLIENT_FOUND_ROWS;
  if (target.statements == protocol::text) flags |= CLIENT_MULTI_STATEMENTS;
  MYSQL* ret = nullptr;
  int status =
      mysql_real_connect_start(&ret, mysql_, host, target.user.c_str(), target.password.c_str(),
                               target.database.c_str(), target.port, socket, flags);
  const std::stop_token caller = shoal::current_stop_token();
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (status != 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    int ready = 0;
    if (left.count() > 0) ready = co_await shoal::with_timeout(left, wait(status));
    if (ready == 0) {
      close();
      if (caller.stop_requested()) co_return outcome::make(outcome_kind::failed, "", "cancelled");
      co_return connect_failure(shown, 0,
                                "timed out after " + std::to_string(timeout.count()) + " ms");
    }
    status = mysql_real_connect_cont(&ret, mysql_, ready);
  }
  if (ret == nullptr) {
    outcome failure = connect_failure(shown, mysql_errno(mysql_),
                                      without_secret(mysql_error(mysql_), target.password));
    close();
    co_return failure;
  }
  connected_ = true;
  // No Nagle: a command is one write, and waiting to coalesce it with the next costs a
  // delayed-ACK interval per round trip over TCP (a no-op on a Unix socket).
  const int no_delay = 1;
  ::setsockopt(static_cast<int>(mysql_get_socket(mysql_)), IPPROTO_TCP, TCP_NODELAY, &no_delay,
               sizeof no_delay);
  if (!watch()) {
    close();
    co_return connect_failure(shown, 0, "cannot watch the connection's socket");
  }
  co_return outcome::success();
}

bool connection::watch() {
  const int fd = static_cast<int>(mysql_get_socket(mysql_));
  if (fd == library_fd_ && watched_fd_ >= 0) return true;
  unwatch();
  if (fd < 0) return false;
  watched_fd_ = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (watched_fd_ < 0) return false;
  library_fd_ = fd;
  watch_ = shoal::fd_watch(watched_fd_);
  return true;
}

void connection::unwatch() noexcept {
  watch_.reset();  // before closing the descriptor it names
  if (watched_fd_ >= 0) ::close(std::exchange(watched_fd_, -1));
  library_fd_ = -1;
}

void connection::close() noexcept {
  unwatch();
  if (mysql_ != nullptr) {
    // mysql_close would send COM_QUIT with a blocking write; closing the socket is enough.
    if (connected_) {
      const int fd = static_cast<int>(mysql_get_socket(mysql_));
      if (fd >= 0) ::shutdown(fd, SHUT_RDWR);
    }
    mysql_close(std::exchange(mysql_, nullptr));
  }
  connected_ = false;
}

shoal::task<int> connection::wait(int status) {
  if (!watch()) co_return 0;
  const bool wants_read = (status & MYSQL_WAIT_READ) != 0;
  const bool wants_write = (status & MYSQL_WAIT_WRITE) != 0;
  if (!wants_read && !wants_write) {  // only a timeout to wait for
    const auto ms = std::chrono::milliseconds(mysql_get_timeout_value_ms(mysql_));
    const bool slept = co_await shoal::sleep_for(ms);
    co_return slept ? MYSQL_WAIT_TIMEOUT : 0;
  }
  for (;;) {
    if (shoal::stop_requested()) co_return 0;
    short events = 0;
    if (wants_read) events |= POLLIN;
    if (wants_write) events |= POLLOUT;
    pollfd probe{.fd = watched_fd_, .events = events, .revents = 0};
    if (::poll(&probe, 1, 0) > 0) {
      int ready = 0;
      if ((probe.revents & (POLLIN | POLLHUP | POLLERR)) != 0 && wants_read) {
        ready |= MYSQL_WAIT_READ;
      }
      if ((probe.revents & (POLLOUT | POLLHUP | POLLERR)) != 0 && wants_write) {
        ready |= MYSQL_WAIT_WRITE;
      }
      if ((probe.revents & (POLLHUP | POLLERR)) != 0) ready |= status & MYSQL_WAIT_EXCEPT;
      if (ready != 0) co_return ready;
    }
    // No co_await in a condition or a ?: operand: g++ 12 miscompiles them (SIGILL).
    bool woke = false;
    if (wants_write) {
      woke = co_await watch_.writable();
    } else {
      woke = co_await watch_.readable();
    }
    if (!woke) co_return 0;
  }
}

bool connection::idle_and_alive() const noexcept {
  if (mysql_ == nullptr || watched_fd_ < 0) return false;
  pollfd probe{.fd = watched_fd_, .events = POLLIN | POLLRDHUP, .revents = 0};
  if (::poll(&probe, 1, 0) <= 0) return true;  // nothing arrived while idle: alive
  // Anything unasked on a MySQL connection is the server's goodbye (an error packet, then EOF).
  return false;
}

}  // namespace tpcc::driver::mysql
