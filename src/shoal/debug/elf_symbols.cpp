// SPDX-License-Identifier: Apache-2.0
#include "debug/elf_symbols.hpp"

#include <cxxabi.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>

namespace shoal::detail {

namespace {

// A read-only mapping of a whole file; empty when it cannot be opened or mapped.
class mapped_file {
 public:
  explicit mapped_file(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st{};
    if (::fstat(fd, &st) == 0 && st.st_size > 0) {
      void* p =
          ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        data_ = static_cast<const unsigned char*>(p);
        size_ = static_cast<std::size_t>(st.st_size);
      }
    }
    ::close(fd);
  }
  mapped_file(const mapped_file&) = delete;
  mapped_file& operator=(const mapped_file&) = delete;
  ~mapped_file() {
    if (data_ != nullptr) ::munmap(const_cast<unsigned char*>(data_), size_);
  }

  // A pointer to `count` objects of T at `offset`, or nullptr when they do not fit in the file.
  template <class T>
  const T* at(std::size_t offset, std::size_t count = 1) const noexcept {
    if (data_ == nullptr || offset > size_ || count > (size_ - offset) / sizeof(T)) return nullptr;
    return reinterpret_cast<const T*>(data_ + offset);
  }

 private:
  const unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
};

using elf_header = ElfW(Ehdr);
using section_header = ElfW(Shdr);
using elf_symbol = ElfW(Sym);

bool is_native_elf(const elf_header& h) {
  return std::memcmp(h.e_ident, ELFMAG, SELFMAG) == 0 &&
         h.e_ident[EI_CLASS] == (sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32) &&
         h.e_shentsize == sizeof(section_header);
}

// The first section of `type`, or nullptr.
const section_header* find_section(const section_header* sections, std::size_t count,
                                   std::uint32_t type) {
  for (std::size_t i = 0; i < count; ++i) {
    if (sections[i].sh_type == type) return &sections[i];
  }
  return nullptr;
}

bool covers(const elf_symbol& s, std::uintptr_t offset) {
  const unsigned type = ELF64_ST_TYPE(s.st_info);
  if ((type != STT_FUNC && type != STT_GNU_IFUNC) || s.st_shndx == SHN_UNDEF) return false;
  const std::uintptr_t size = s.st_size != 0 ? s.st_size : 1;
  return s.st_value <= offset && offset - s.st_value < size;
}

// The name of the function symbol of `table` covering `offset`, or an empty string.
std::string search_table(const mapped_file& file, const section_header* sections, std::size_t count,
                         const section_header& table, std::uintptr_t offset) {
  if (table.sh_link >= count || table.sh_entsize != sizeof(elf_symbol)) return {};
  const section_header& strings = sections[table.sh_link];
  const std::size_t n = table.sh_size / sizeof(elf_symbol);
  const elf_symbol* symbols = file.at<elf_symbol>(table.sh_offset, n);
  const char* names = file.at<char>(strings.sh_offset, strings.sh_size);
  if (symbols == nullptr || names == nullptr) return {};
  for (std::size_t i = 0; i < n; ++i) {
    if (!covers(symbols[i], offset) || symbols[i].st_name >= strings.sh_size) continue;
    const char* name = names + symbols[i].st_name;
    return std::string(name, ::strnlen(name, strings.sh_size - symbols[i].st_name));
  }
  return {};
}

constexpr const char* self_exe = "/proc/self/exe";

struct module_search {
  std::uintptr_t address;
  code_module found;
};

int match_module(dl_phdr_info* info, std::size_t /*size*/, void* data) {
  auto* search = static_cast<module_search*>(data);
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    const std::uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    if (search->address < start || search->address - start >= ph.p_memsz) continue;
    const bool main_program = info->dlpi_name == nullptr || info->dlpi_name[0] == '\0';
    search->found.path = main_program ? self_exe : info->dlpi_name;
    search->found.offset = search->address - info->dlpi_addr;
    return 1;  // stop iterating
  }
  return 0;
}

std::string demangle(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> out(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && out ? std::string(out.get()) : mangled;
}

bool strip_suffix(std::string_view& s, std::string_view suffix) {
  if (s.size() < suffix.size() || s.substr(s.size() - suffix.size()) != suffix) return false;
  s.remove_suffix(suffix.size());
  return true;
}

// g++ names a coroutine's actor `<ramp>(<len>_Z<ramp>.Frame*) [clone .actor]`: the ramp's own
// mangled name is the length-prefixed source name ending with ".Frame". Finds it, or returns "".
std::string_view gcc_ramp_name(std::string_view without_clone) {
  if (!strip_suffix(without_clone, ".Frame")) return {};
  const std::size_t end = without_clone.size() + std::string_view(".Frame").size();
  for (std::size_t s = without_clone.find("_Z"); s != std::string_view::npos;
       s = without_clone.find("_Z", s + 1)) {
    std::size_t digits = s;
    while (digits > 0 && without_clone[digits - 1] >= '0' && without_clone[digits - 1] <= '9')
      --digits;
    if (digits == s) continue;
    const std::string_view length = without_clone.substr(digits, s - digits);
    if (length == std::to_string(end - s)) return without_clone.substr(s);
  }
  return {};
}

}  // namespace

code_module find_code_module(const void* code) {
  module_search search{reinterpret_cast<std::uintptr_t>(code), {}};
  ::dl_iterate_phdr(&match_module, &search);
  if (search.found.path == self_exe) {
    char path[4096];
    const ssize_t n = ::readlink(self_exe, path, sizeof path - 1);
    if (n > 0) search.found.path.assign(path, static_cast<std::size_t>(n));
  }
  return search.found;
}

std::string elf_function_at(const std::string& path, std::uintptr_t offset) {
  const mapped_file file(path);
  const elf_header* header = file.at<elf_header>(0);
  if (header == nullptr || !is_native_elf(*header)) return {};
  const section_header* sections = file.at<section_header>(header->e_shoff, header->e_shnum);
  if (sections == nullptr) return {};
  for (const std::uint32_t type : {SHT_SYMTAB, SHT_DYNSYM}) {
    const section_header* table = find_section(sections, header->e_shnum, type);
    if (table == nullptr) continue;
    std::string name = search_table(file, sections, header->e_shnum, *table, offset);
    if (!name.empty()) return name;
  }
  return {};
}

std::string readable_function_name(const std::string& mangled) {
  std::string_view name = mangled;
  if (strip_suffix(name, ".resume")) return demangle(std::string(name));  // clang
  if (strip_suffix(name, ".actor")) {                                     // g++
    const std::string_view ramp = gcc_ramp_name(name);
    if (!ramp.empty()) return demangle(std::string(ramp));
    return demangle(std::string(name));
  }
  return demangle(mangled);
}

}  // namespace shoal::detail
