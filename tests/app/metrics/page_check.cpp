// SPDX-License-Identifier: Apache-2.0
// tests/app/metrics/page_check.cpp: reading and checking exposition pages (see page_check.hpp).
#include "page_check.hpp"

#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace tpcc::testing {
namespace {

struct line_sample {
  std::string name, labels, value;
};

std::optional<line_sample> split(const std::string& line) {
  static const std::regex shape(R"(^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$)");
  std::smatch m;
  if (!std::regex_match(line, m, shape)) return std::nullopt;
  return line_sample{m[1], m[2], m[3]};
}

// The family a sample name belongs to: histogram series drop their suffix.
std::string family_of(const std::string& name, const std::map<std::string, std::string>& types) {
  for (const char* suffix : {"_bucket", "_sum", "_count"}) {
    const std::string s(suffix);
    if (name.size() > s.size() && name.ends_with(s)) {
      const std::string base = name.substr(0, name.size() - s.size());
      const auto t = types.find(base);
      if (t != types.end() && t->second == "histogram") return base;
    }
  }
  return name;
}

// The labels of a bucket line without its `le`, and its `le`.
std::pair<std::string, std::string> without_le(const std::string& labels) {
  static const std::regex le(R"re(,?le="([^"]*)")re");
  std::smatch m;
  if (!std::regex_search(labels, m, le)) return {labels, ""};
  return {m.prefix().str() + m.suffix().str(), m[1]};
}

class checker {
 public:
  void line(const std::string& text) {
    if (text.rfind("# HELP ", 0) == 0) return help(text.substr(7));
    if (text.rfind("# TYPE ", 0) == 0) return type(text.substr(7));
    if (text.empty() || text[0] == '#') return;
    const auto s = split(text);
    if (!s) return problem("not a sample line: " + text);
    sample(*s);
  }
  std::vector<std::string> finish() {
    for (const auto& [series, inf] : inf_) {
      if (counts_.count(series) == 0 || counts_[series] != inf) {
        problem("+Inf bucket differs from _count: " + series);
      }
    }
    return problems_;
  }

 private:
  void problem(std::string what) { problems_.push_back(std::move(what)); }
  void help(const std::string& rest) { helped_.insert(rest.substr(0, rest.find(' '))); }
  void type(const std::string& rest) {
    const std::string name = rest.substr(0, rest.find(' '));
    if (types_.count(name) != 0) problem("family declared twice: " + name);
    if (helped_.count(name) == 0) problem("no HELP before TYPE: " + name);
    types_[name] = rest.substr(rest.find(' ') + 1);
    current_ = name;
  }
  void sample(const line_sample& s) {
    const std::string family = family_of(s.name, types_);
    if (family != current_) problem("sample outside its family: " + s.name);
    if (s.name.ends_with("_bucket") && family != s.name) return bucket(s);
    if (s.name.ends_with("_count") && family != s.name) counts_[family + s.labels] = s.value;
  }
  void bucket(const line_sample& s) {
    const auto [series, le] = without_le(s.labels);
    const double value = std::stod(s.value);
    const std::string key = s.name + series;
    if (last_bucket_.count(key) != 0 && value < last_bucket_[key]) {
      problem("buckets not cumulative: " + key + " le=" + le);
    }
    last_bucket_[key] = value;
    if (le == "+Inf") inf_[s.name.substr(0, s.name.size() - 7) + series] = s.value;
  }

  std::set<std::string> helped_;
  std::map<std::string, std::string> types_;
  std::string current_;
  std::map<std::string, double> last_bucket_;
  std::map<std::string, std::string> inf_, counts_;
  std::vector<std::string> problems_;
};

}  // namespace

std::optional<double> sample_value(const std::string& page, const std::string& series) {
  std::istringstream in(page);
  for (std::string line; std::getline(in, line);) {
    if (line.size() > series.size() && line.rfind(series + " ", 0) == 0) {
      return std::stod(line.substr(series.size() + 1));
    }
  }
  return std::nullopt;
}

std::vector<std::string> format_problems(const std::string& page) {
  checker c;
  std::istringstream in(page);
  for (std::string line; std::getline(in, line);) c.line(line);
  if (!page.empty() && page.back() != '\n') return {"the page does not end with a line feed"};
  return c.finish();
}

}  // namespace tpcc::testing
