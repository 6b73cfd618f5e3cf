// SPDX-License-Identifier: Apache-2.0
// shoal/socket.hpp: TCP and Unix stream sockets on the reactor.
//
// What: `stream_socket` is a connected, non-blocking socket whose reads and writes suspend the
// calling coroutine instead of a thread (through an fd_watch, shoal/fd_watch.hpp).
// `stream_listener` accepts connections. Both own their descriptor and close it when destroyed.
// Sockets are created on a thread_pool worker (their watch registers with its reactor) and may
// then be used from any worker, one reader and one writer at a time.
//
// Awaiting connect_tcp / connect_unix / read_some / write_all / accept:
//   Result: the socket; the number of bytes read (0 at end of stream); nothing (all written).
//   Errors: std::system_error with the errno of the failing call (ECONNREFUSED, ECONNRESET,
//           EPIPE, ...), or std::errc::operation_canceled when cancelled. connect_tcp resolves
//           names with getaddrinfo, which blocks: pass a numeric address in hot paths.
//   Cancellation: the chain's stop token: a pending connect, read, write or accept ends at once
//                 with operation_canceled (a write may have sent part of its buffer).
//   Resumes on: the executor it was awaited on.
//   Thread-safety: one coroutine reading and one writing at a time per socket.
//   Example:
//     auto s = co_await shoal::stream_socket::connect_tcp("127.0.0.1", port);
//     co_await s.write_all(std::as_bytes(std::span(request)));
//     std::size_t n = co_await s.read_some(std::as_writable_bytes(std::span(buffer)));
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "shoal/fd_watch.hpp"
#include "shoal/task.hpp"

namespace shoal {

class stream_socket {
 public:
  stream_socket() noexcept = default;
  // Adopts a connected non-blocking descriptor (registers it with the current reactor).
  explicit stream_socket(int fd);
  stream_socket(stream_socket&& other) noexcept;
  stream_socket& operator=(stream_socket&& other) noexcept;
  stream_socket(const stream_socket&) = delete;
  stream_socket& operator=(const stream_socket&) = delete;
  ~stream_socket() { close(); }

  [[nodiscard]] static task<stream_socket> connect_tcp(std::string host, std::uint16_t port);
  [[nodiscard]] static task<stream_socket> connect_unix(std::string path);

  [[nodiscard]] task<std::size_t> read_some(std::span<std::byte> buffer);
  [[nodiscard]] task<void> write_all(std::span<const std::byte> data);
  // Ends the sending direction (the peer reads end of stream).
  void shutdown_write() noexcept;
  void close() noexcept;

  [[nodiscard]] int fd() const noexcept { return fd_; }
  [[nodiscard]] explicit operator bool() const noexcept { return fd_ >= 0; }

 private:
  int fd_ = -1;
  // The last read_some returned fewer bytes than asked: the next one waits for an edge before
  // calling recv (docs/design/reactor.md, "Reads that would fail"). Touched by the reader only.
  bool read_drained_ = false;
  fd_watch watch_;
};

class stream_listener {
 public:
  stream_listener() noexcept = default;
  // Binds and listens; port 0 picks a free port (see port()). Errors: std::system_error.
  [[nodiscard]] static stream_listener listen_tcp(const std::string& address, std::uint16_t port);
  [[nodiscard]] static stream_listener listen_unix(const std::string& path);
  stream_listener(stream_listener&& other) noexcept;
  stream_listener& operator=(stream_listener&& other) noexcept;
  stream_listener(const stream_listener&) = delete;
  stream_listener& operator=(const stream_listener&) = delete;
  ~stream_listener() { close(); }

  [[nodiscard]] task<stream_socket> accept();
  [[nodiscard]] std::uint16_t port() const;
  void close() noexcept;

 private:
  explicit stream_listener(int fd);
  int fd_ = -1;
  fd_watch watch_;
};

}  // namespace shoal
