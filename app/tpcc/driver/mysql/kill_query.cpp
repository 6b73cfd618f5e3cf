// SPDX-License-Identifier: Apache-2.0
// KILL QUERY on a connection of its own (kill_query.hpp).
#include "driver/mysql/kill_query.hpp"

#include <mysql.h>

#include <memory>
#include <string>

#include "driver/mysql/connection.hpp"

namespace tpcc::driver::mysql {
namespace {

struct killer_closer {
  void operator()(MYSQL* m) const noexcept { mysql_close(m); }
};

}  // namespace

bool kill_query(const uri& target, unsigned long id, std::chrono::milliseconds timeout) noexcept {
  const std::unique_ptr<MYSQL, killer_closer> killer(mysql_init(nullptr));
  if (!killer) return false;
  const auto seconds = static_cast<unsigned>((timeout.count() + 999) / 1000);
  mysql_options(killer.get(), MYSQL_OPT_CONNECT_TIMEOUT, &seconds);
  mysql_options(killer.get(), MYSQL_OPT_READ_TIMEOUT, &seconds);
  mysql_options(killer.get(), MYSQL_OPT_WRITE_TIMEOUT, &seconds);
  apply_tls(killer.get(), target);
  const char* socket = target.socket.empty() ? nullptr : target.socket.c_str();
  const char* host = socket != nullptr ? "localhost" : target.host.c_str();
  if (mysql_real_connect(killer.get(), host, target.user.c_str(), target.password.c_str(), nullptr,
                         target.port, socket, 0) == nullptr) {
    return false;
  }
  const std::string kill = "KILL QUERY " + std::to_string(id);
  return mysql_query(killer.get(), kill.c_str()) == 0;
}

}  // namespace tpcc::driver::mysql
