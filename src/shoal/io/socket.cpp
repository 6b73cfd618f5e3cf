// SPDX-License-Identifier: Apache-2.0
// TCP and Unix stream sockets (shoal/socket.hpp).
#include "shoal/socket.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <system_error>
#include <utility>

namespace shoal {
namespace {

[[noreturn]] void fail(int error, const std::string& what) {
  throw std::system_error(error, std::generic_category(), "shoal: " + what);
}

[[noreturn]] void cancelled(const char* what) {
  throw std::system_error(std::make_error_code(std::errc::operation_canceled),
                          std::string("shoal: ") + what + " cancelled");
}

int open_socket(int family) {
  const int fd = ::socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) fail(errno, "socket");
  return fd;
}

void set_no_delay(int fd) noexcept {
  const int one = 1;
  (void)::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

sockaddr_un unix_address(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof addr.sun_path) fail(ENAMETOOLONG, "unix socket path '" + path + "'");
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  return addr;
}

// Connects `sock` (already watched) to `addr`, waiting for the handshake on the reactor.
task<void> connect_to(stream_socket& sock, fd_watch& watch, const sockaddr* addr, socklen_t len,
                      const std::string& what) {
  if (::connect(sock.fd(), addr, len) == 0) co_return;
  if (errno != EINPROGRESS && errno != EAGAIN) fail(errno, "connect to " + what);
  const bool ready = co_await watch.writable();  // not in the if: g++ 12 (task-and-transfer.md)
  if (!ready) cancelled("connect");
  int error = 0;
  socklen_t size = sizeof error;
  if (::getsockopt(sock.fd(), SOL_SOCKET, SO_ERROR, &error, &size) != 0) error = errno;
  if (error != 0) fail(error, "connect to " + what);
}

struct addrinfo_deleter {
  void operator()(addrinfo* list) const noexcept { freeaddrinfo(list); }
};

}  // namespace

stream_socket::stream_socket(int fd) : fd_(fd) {
  try {
    watch_ = fd_watch(fd);
  } catch (...) {
    ::close(std::exchange(fd_, -1));
    throw;
  }
}

stream_socket::stream_socket(stream_socket&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      read_drained_(std::exchange(other.read_drained_, false)),
      watch_(std::move(other.watch_)) {}

stream_socket& stream_socket::operator=(stream_socket&& other) noexcept {
  if (this != &other) {
    close();
    fd_ = std::exchange(other.fd_, -1);
    read_drained_ = std::exchange(other.read_drained_, false);
    watch_ = std::move(other.watch_);
  }
  return *this;
}

void stream_socket::close() noexcept {
  watch_.reset();  // deregister before the descriptor number can be reused
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));
}

void stream_socket::shutdown_write() noexcept {
  if (fd_ >= 0) (void)::shutdown(fd_, SHUT_WR);
}

task<stream_socket> stream_socket::connect_tcp(std::string host, std::uint16_t port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  if (const int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &found); rc != 0) {
    throw std::system_error(std::make_error_code(std::errc::host_unreachable),
                            "shoal: resolve '" + host + "': " + gai_strerror(rc));
  }
  const std::unique_ptr<addrinfo, addrinfo_deleter> list(found);
  const std::string target = host + ':' + service;
  std::system_error last(std::make_error_code(std::errc::host_unreachable), "no address");
  for (const addrinfo* ai = list.get(); ai != nullptr; ai = ai->ai_next) {
    stream_socket sock(open_socket(ai->ai_family));
    set_no_delay(sock.fd());
    try {
      co_await connect_to(sock, sock.watch_, ai->ai_addr, ai->ai_addrlen, target);
      co_return sock;
    } catch (const std::system_error& e) {
      if (e.code() == std::errc::operation_canceled) throw;
      last = e;
    }
  }
  throw last;
}

task<stream_socket> stream_socket::connect_unix(std::string path) {
  const sockaddr_un addr = unix_address(path);
  stream_socket sock(open_socket(AF_UNIX));
  co_await connect_to(sock, sock.watch_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr,
                      path);
  co_return sock;
}

task<std::size_t> stream_socket::read_some(std::span<std::byte> buffer) {
  // The last read drained the socket: nothing is there unless an edge came since, so wait for
  // it first rather than pay a recv that fails (the wait consumes a remembered edge at once).
  // Not after a hang-up: end of stream or an error stays readable with no edge to come.
  if (std::exchange(read_drained_, false) && !watch_.hung_up()) {
    const bool ready = co_await watch_.readable();  // not in the if: g++ 12 (task-and-transfer.md)
    if (!ready) cancelled("read");
  }
  for (;;) {
    const ssize_t n = ::recv(fd_, buffer.data(), buffer.size(), 0);
    if (n >= 0) {
      // Fewer bytes than asked: the receive queue was empty when recv returned, and whatever
      // arrives later raises an edge. End of stream (0) stays readable: not drained.
      read_drained_ = n > 0 && static_cast<std::size_t>(n) < buffer.size();
      co_return static_cast<std::size_t>(n);
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) fail(errno, "read");
    const bool ready = co_await watch_.readable();
    if (!ready) cancelled("read");
  }
}

task<void> stream_socket::write_all(std::span<const std::byte> data) {
  while (!data.empty()) {
    const ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
    if (n >= 0) {
      data = data.subspan(static_cast<std::size_t>(n));
      continue;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) fail(errno, "write");
    const bool ready = co_await watch_.writable();
    if (!ready) cancelled("write");
  }
}

stream_listener::stream_listener(int fd) : fd_(fd) {
  try {
    watch_ = fd_watch(fd);
  } catch (...) {
    ::close(std::exchange(fd_, -1));
    throw;
  }
}

stream_listener::stream_listener(stream_listener&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), watch_(std::move(other.watch_)) {}

stream_listener& stream_listener::operator=(stream_listener&& other) noexcept {
  if (this != &other) {
    close();
    fd_ = std::exchange(other.fd_, -1);
    watch_ = std::move(other.watch_);
  }
  return *this;
}

void stream_listener::close() noexcept {
  watch_.reset();
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));
}

stream_listener stream_listener::listen_tcp(const std::string& address, std::uint16_t port) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  if (inet_pton(AF_INET, address.c_str(), &addr.sin_addr) != 1) {
    fail(EINVAL, "listen address '" + address + "' is not a numeric IPv4 address");
  }
  const int fd = open_socket(AF_INET);
  const int one = 1;
  (void)::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(fd, SOMAXCONN) != 0) {
    const int error = errno;
    ::close(fd);
    fail(error, "listen on " + address + ":" + std::to_string(port));
  }
  return stream_listener(fd);
}

stream_listener stream_listener::listen_unix(const std::string& path) {
  const sockaddr_un addr = unix_address(path);
  const int fd = open_socket(AF_UNIX);
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(fd, SOMAXCONN) != 0) {
    const int error = errno;
    ::close(fd);
    fail(error, "listen on " + path);
  }
  return stream_listener(fd);
}

std::uint16_t stream_listener::port() const {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) fail(errno, "getsockname");
  if (addr.ss_family == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in&>(addr).sin_port);
  if (addr.ss_family == AF_INET6) {
    return ntohs(reinterpret_cast<const sockaddr_in6&>(addr).sin6_port);
  }
  return 0;
}

task<stream_socket> stream_listener::accept() {
  for (;;) {
    const int fd = ::accept4(fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0) {
      set_no_delay(fd);  // harmless on Unix sockets (the call fails there)
      co_return stream_socket(fd);
    }
    if (errno == EINTR || errno == ECONNABORTED) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) fail(errno, "accept");
    const bool ready = co_await watch_.readable();
    if (!ready) cancelled("accept");
  }
}

}  // namespace shoal
