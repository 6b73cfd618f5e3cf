// SPDX-License-Identifier: Apache-2.0
// node_target() (node_target.hpp): another node's target from libpq's parse of this one.
#include "driver/node_target.hpp"

#include <libpq-fe.h>

#include <string>
#include <string_view>

namespace tpcc::driver {
namespace {

// `value` as a key/value connection string reads it back: bare when it can be, else quoted.
void append_conninfo_value(std::string& out, std::string_view value) {
  const bool bare =
      !value.empty() && value.find_first_of(" \t\n\r\f\v'\\") == std::string_view::npos;
  if (bare) {
    out.append(value);
    return;
  }
  out.push_back('\'');
  for (const char c : value) {
    if (c == '\'' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  out.push_back('\'');
}

void append_setting(std::string& out, std::string_view key, std::string_view value) {
  if (!out.empty()) out.push_back(' ');
  out.append(key).push_back('=');
  append_conninfo_value(out, value);
}

// The settings that name the server: replaced by the node's.
bool names_the_server(std::string_view key) {
  return key == "host" || key == "hostaddr" || key == "port";
}

}  // namespace

std::string node_target(const std::string& target, std::string_view host, std::int64_t port) {
  PQconninfoOption* options = PQconninfoParse(target.c_str(), nullptr);
  if (options == nullptr) return {};
  std::string out;
  append_setting(out, "host", host);
  append_setting(out, "port", std::to_string(port));
  for (const PQconninfoOption* o = options; o->keyword != nullptr; ++o) {
    if (o->val != nullptr && !names_the_server(o->keyword)) append_setting(out, o->keyword, o->val);
  }
  PQconninfoFree(options);
  return out;
}

}  // namespace tpcc::driver
