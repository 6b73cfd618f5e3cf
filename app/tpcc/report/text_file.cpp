// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/text_file.cpp: writing a report file (see text_file.hpp).
#include "report/text_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace tpcc::report {
namespace {

struct file_closer {
  void operator()(std::FILE* f) const noexcept { static_cast<void>(std::fclose(f)); }
};

std::string failure(std::string_view what, const std::string& path, int error) {
  std::string out = "cannot write ";
  out.append(what).append(" to ").append(path).append(": ").append(std::strerror(error));
  return out;
}

}  // namespace

std::optional<std::string> write_text_file(const std::string& path, std::string_view content,
                                           std::string_view what) {
  std::unique_ptr<std::FILE, file_closer> file(std::fopen(path.c_str(), "wb"));
  if (!file) return failure(what, path, errno);
  if (std::fwrite(content.data(), 1, content.size(), file.get()) != content.size()) {
    return failure(what, path, errno);
  }
  if (std::fclose(file.release()) != 0) return failure(what, path, errno);
  return std::nullopt;
}

}  // namespace tpcc::report
