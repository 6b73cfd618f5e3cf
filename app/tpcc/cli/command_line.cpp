// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/command_line.cpp: the recorded command line (see command_line.hpp).
#include "cli/command_line.hpp"

#include <algorithm>
#include <cctype>

#include "driver/open.hpp"

namespace tpcc::cli {
namespace {

using std::string_view;

bool plain(string_view word) {
  return !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           string_view("-_=./:,@%+").find(c) != string_view::npos;
  });
}

// Single quotes unless the word needs none; a ' inside becomes '\''. Appends only: g++ 12 at
// -O3 warns falsely (-Wrestrict) on `"literal" + std::string`.
void append_quoted(std::string& out, string_view word) {
  if (plain(word)) {
    out.append(word);
    return;
  }
  out.push_back('\'');
  for (const char c : word) {
    if (c == '\'') {
      out.append("'\\''");
    } else {
      out.push_back(c);
    }
  }
  out.push_back('\'');
}

}  // namespace

std::string command_line(std::span<const std::string_view> args) {
  std::string out = "shoal-tpcc";
  bool db_value = false;
  for (const string_view arg : args) {
    std::string word;
    if (db_value) {
      word = driver::redact(std::string(arg));
    } else if (arg.starts_with("--db=")) {
      word.append("--db=").append(driver::redact(std::string(arg.substr(5))));
    } else {
      word.assign(arg);
    }
    db_value = arg == "--db";
    out.push_back(' ');
    append_quoted(out, word);
  }
  return out;
}

}  // namespace tpcc::cli
