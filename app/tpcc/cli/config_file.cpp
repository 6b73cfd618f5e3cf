// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/config_file.cpp: reading --config FILE with toml++ (see config_file.hpp).
#include "cli/config_file.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string_view>

namespace tpcc::cli {
namespace {

bool control(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }

// toml++'s description on one line: it may quote the file's bytes, a newline among them.
std::string one_line(std::string_view text) {
  std::string out(text);
  std::replace_if(out.begin(), out.end(), control, ' ');
  return out;
}

std::string where(const std::string& path, const toml::source_region& at) {
  return path + ":" + std::to_string(at.begin.line);
}

// The entry of `key = node`, or what is wrong with it.
std::variant<config_entry, std::string> entry_of(const std::string& path, std::string_view key,
                                                 const toml::node& node) {
  config_entry e{std::string(key), std::nullopt, static_cast<long>(node.source().begin.line)};
  if (std::any_of(key.begin(), key.end(), control)) {
    return where(path, node.source()) + ": a key with a control character (no option has one)";
  }
  if (const auto* s = node.as_string()) {
    if (std::any_of(s->get().begin(), s->get().end(), control)) {
      return where(path, node.source()) + ": " + std::string(key) +
             " holds a control character (a newline, a tab): no option takes one";
    }
    e.value = s->get();
  } else if (const auto* i = node.as_integer()) {
    e.value = std::to_string(i->get());
  } else if (const auto* f = node.as_floating_point()) {
    std::array<char, 64> text{};
    std::snprintf(text.data(), text.size(), "%.17g", f->get());
    e.value = text.data();
  } else if (!node.is_boolean()) {
    return where(path, node.source()) + ": " + std::string(key) +
           " must be a string, a number or a boolean (tables and arrays are not options)";
  }
  return e;
}

// `db = ["...", "..."]`: one entry per endpoint, as if --db were given once for each.
std::optional<std::string> add_endpoints(const std::string& path, const toml::array& list,
                                         std::vector<config_entry>& entries) {
  if (list.empty()) return where(path, list.source()) + ": db = [] names no database";
  for (const toml::node& item : list) {
    if (!item.is_string()) {
      return where(path, item.source()) + ": db must be a string or a list of strings";
    }
    auto e = entry_of(path, "db", item);
    if (auto* wrong = std::get_if<std::string>(&e)) return std::move(*wrong);
    entries.push_back(std::move(std::get<config_entry>(e)));
  }
  return std::nullopt;
}

// Appends one [[schedule]] table (`rate = TPM`, `duration = "60s"` or seconds, optionally
// `streams = N`) to `text` as a --schedule step; what is wrong with it, if anything.
std::optional<std::string> append_schedule_step(const std::string& path, const toml::node& item,
                                                std::string& text) {
  const toml::table* t = item.as_table();
  const toml::node* rate = t != nullptr ? t->get("rate") : nullptr;
  const toml::node* length = t != nullptr ? t->get("duration") : nullptr;
  const toml::node* streams = t != nullptr ? t->get("streams") : nullptr;
  if (rate == nullptr || length == nullptr || t->size() != (streams != nullptr ? 3U : 2U)) {
    return where(path, item.source()) +
           ": each [[schedule]] table holds rate = TPM and duration = \"60s\" (and optionally "
           "streams = N), nothing else";
  }
  auto r = entry_of(path, "rate", *rate);
  auto d = entry_of(path, "duration", *length);
  if (auto* wrong = std::get_if<std::string>(&r)) return std::move(*wrong);
  if (auto* wrong = std::get_if<std::string>(&d)) return std::move(*wrong);
  if (!text.empty()) text.push_back(',');
  text += "rate=" + std::get<config_entry>(r).value.value_or("") + ":" +
          std::get<config_entry>(d).value.value_or("");
  if (streams == nullptr) return std::nullopt;
  auto n = entry_of(path, "streams", *streams);
  if (auto* wrong = std::get_if<std::string>(&n)) return std::move(*wrong);
  text += ":streams=" + std::get<config_entry>(n).value.value_or("");
  return std::nullopt;
}

// [[schedule]] tables: one `schedule` entry, their steps in order, as --schedule would take them.
std::optional<std::string> add_schedule(const std::string& path, const toml::array& list,
                                        std::vector<config_entry>& entries) {
  std::string text;
  for (const toml::node& item : list) {
    if (auto wrong = append_schedule_step(path, item, text)) return wrong;
  }
  entries.push_back({"schedule", std::move(text), static_cast<long>(list.source().begin.line)});
  return std::nullopt;
}

}  // namespace

std::variant<std::vector<config_entry>, std::string> read_config_file(const std::string& path) {
  toml::table table;
  try {
    table = toml::parse_file(path);
  } catch (const toml::parse_error& error) {
    const toml::source_position at = error.source().begin;
    if (at.line == 0) return path + ": " + one_line(error.description());  // unreadable
    return path + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " +
           one_line(error.description());
  }
  std::vector<config_entry> entries;
  for (const auto& [key, node] : table) {
    if (key.str() == "db" && node.is_array()) {  // several endpoints (cli/endpoints.hpp)
      if (auto wrong = add_endpoints(path, *node.as_array(), entries)) return std::move(*wrong);
      continue;
    }
    if (key.str() == "schedule" && node.is_array()) {  // [[schedule]]: cli/schedule.hpp
      if (auto wrong = add_schedule(path, *node.as_array(), entries)) return std::move(*wrong);
      continue;
    }
    auto e = entry_of(path, key.str(), node);
    if (auto* wrong = std::get_if<std::string>(&e)) return std::move(*wrong);
    auto& entry = std::get<config_entry>(e);
    if (const auto* b = node.as_boolean(); b != nullptr && !b->get()) continue;  // flag off
    entries.push_back(std::move(entry));
  }
  return entries;
}

}  // namespace tpcc::cli
