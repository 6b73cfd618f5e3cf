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

// Single quotes unless the word needs none; a ' inside becomes '\''.
std::string quoted(string_view word) {
  if (plain(word)) return std::string(word);
  std::string out = "'";
  for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::string command_line(std::span<const std::string_view> args) {
  std::string out = "shoal-tpcc";
  bool db_value = false;
  for (const string_view arg : args) {
    std::string word(arg);
    if (db_value) {
      word = driver::redact(word);
    } else if (arg.starts_with("--db=")) {
      word = "--db=" + driver::redact(std::string(arg.substr(5)));
    }
    db_value = arg == "--db";
    out += " " + quoted(word);
  }
  return out;
}

}  // namespace tpcc::cli
