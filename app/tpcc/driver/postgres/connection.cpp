// SPDX-License-Identifier: Apache-2.0
// libpq connection on shoal's reactor (connection.hpp).
#include "driver/postgres/connection.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <array>
#include <stop_token>
#include <utility>

#include "driver/open.hpp"
#include "shoal/stop.hpp"
#include "shoal/timeout.hpp"

namespace tpcc::driver::postgres {

namespace {

void swallow_notice(void* /*arg*/, const PGresult* /*notice*/) {}
void swallow_message(void* /*arg*/, const char* /*message*/) {}

outcome connect_failure(const std::string& shown, const std::string& conninfo, std::string why) {
  why = without_password(std::move(why), conninfo);
  // Wrong credentials or database: retrying will not help; anything else may be transient.
  const bool refused = why.find("authentication") != std::string::npos ||
                       why.find("does not exist") != std::string::npos;
  return outcome::make(refused ? outcome_kind::failed : outcome_kind::connection_lost, "",
                       "cannot connect to " + shown + ": " + why);
}

}  // namespace

std::string one_line(const char* message) {
  std::string text = message != nullptr ? message : "";
  for (char& c : text) {
    if (c == '\n' || c == '\t') c = ' ';
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  std::string squeezed;
  for (char c : text) {
    if (c != ' ' || squeezed.empty() || squeezed.back() != ' ') squeezed.push_back(c);
  }
  return squeezed;
}

shoal::task<outcome> connection::connect(const std::string& conninfo, const std::string& shown,
                                         std::chrono::milliseconds timeout) {
  close();
  // dbname with expand_dbname=1 takes a whole connection string, in either form.
  const std::array<const char*, 3> keys{"dbname", "fallback_application_name", nullptr};
  const std::array<const char*, 3> values{conninfo.c_str(), "shoal-tpcc", nullptr};
  conn_ = PQconnectStartParams(keys.data(), values.data(), 1);
  if (conn_ == nullptr) co_return connect_failure(shown, conninfo, "out of memory");
  PQsetNoticeReceiver(conn_, &swallow_notice, nullptr);
  PQsetNoticeProcessor(conn_, &swallow_message, nullptr);
  if (PQstatus(conn_) == CONNECTION_BAD) {
    outcome failure = connect_failure(shown, conninfo, one_line(PQerrorMessage(conn_)));
    close();
    co_return failure;
  }
  const std::stop_token caller = shoal::current_stop_token();
  const io_status status = co_await shoal::with_timeout(timeout, poll_connect());
  if (status != io_status::ok) {
    close();
    if (caller.stop_requested()) co_return outcome::make(outcome_kind::failed, "", "cancelled");
    co_return connect_failure(shown, conninfo,
                              "timed out after " + std::to_string(timeout.count()) + " ms");
  }
  if (PQstatus(conn_) != CONNECTION_OK) {
    outcome failure = connect_failure(shown, conninfo, one_line(PQerrorMessage(conn_)));
    close();
    co_return failure;
  }
  if (PQsetnonblocking(conn_, 1) != 0 || PQenterPipelineMode(conn_) != 1) {
    outcome failure = connect_failure(shown, conninfo, one_line(PQerrorMessage(conn_)));
    close();
    co_return failure;
  }
  if (!watch(PQsocket(conn_))) {
    close();
    co_return connect_failure(shown, conninfo, "cannot watch the connection's socket");
  }
  co_return outcome::success();
}

// PQconnectPoll's loop. Registration is dropped before each PQconnectPoll call, which may
// close the socket, and made again on whatever socket it leaves.
shoal::task<io_status> connection::poll_connect() {
  PostgresPollingStatusType state = PGRES_POLLING_WRITING;
  for (;;) {
    if (state == PGRES_POLLING_OK || state == PGRES_POLLING_FAILED) co_return io_status::ok;
    if (!watch(PQsocket(conn_))) co_return io_status::broken;
    // No co_await in a condition or a ?: operand: g++ 12 miscompiles them (SIGILL).
    bool ready = false;
    if (state == PGRES_POLLING_READING) {
      ready = co_await readable();
    } else {
      ready = co_await watch_.writable();
    }
    unwatch();
    if (!ready) co_return io_status::cancelled;
    state = PQconnectPoll(conn_);
  }
}

bool connection::watch(int fd) {
  unwatch();
  if (fd < 0) return false;
  watched_fd_ = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (watched_fd_ < 0) return false;
  watch_ = shoal::fd_watch(watched_fd_);
  return true;
}

void connection::unwatch() noexcept {
  watch_.reset();  // before closing the descriptor it names
  if (watched_fd_ >= 0) ::close(std::exchange(watched_fd_, -1));
}

void connection::close() noexcept {
  unwatch();
  if (conn_ != nullptr) PQfinish(std::exchange(conn_, nullptr));
}

// Readable now (a cheap poll: the watch is edge-triggered and libpq may have left data in the
// socket), or after the next edge.
shoal::task<bool> connection::readable() {
  if (shoal::stop_requested()) co_return false;
  pollfd probe{.fd = watched_fd_, .events = POLLIN, .revents = 0};
  if (::poll(&probe, 1, 0) > 0) co_return true;
  co_return co_await watch_.readable();
}

shoal::task<io_status> connection::flush() {
  for (;;) {
    const int left = PQflush(conn_);
    if (left == 0) co_return io_status::ok;
    if (left < 0) co_return io_status::broken;
    // More to send: libpq has already read any pending input so the server is not stuck
    // writing to us; wait for room in the socket.
    const bool room = co_await watch_.writable();
    if (!room) co_return io_status::cancelled;
  }
}

shoal::task<io_status> connection::wait_result() {
  while (PQisBusy(conn_) != 0) {
    const bool ready = co_await readable();
    if (!ready) co_return io_status::cancelled;
    if (PQconsumeInput(conn_) == 0) co_return io_status::broken;
  }
  co_return io_status::ok;
}

bool connection::idle_and_alive() noexcept {
  if (conn_ == nullptr || watched_fd_ < 0 || PQstatus(conn_) != CONNECTION_OK) return false;
  pollfd probe{.fd = watched_fd_, .events = POLLIN | POLLRDHUP, .revents = 0};
  if (::poll(&probe, 1, 0) <= 0) return true;  // nothing arrived while idle: alive
  // Something arrived unasked: the server's goodbye (FATAL, then EOF) or an asynchronous
  // message. Read it and look.
  if ((probe.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0) return false;
  return PQconsumeInput(conn_) != 0 && PQstatus(conn_) == CONNECTION_OK;
}

}  // namespace tpcc::driver::postgres
