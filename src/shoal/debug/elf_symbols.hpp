// SPDX-License-Identifier: Apache-2.0
// elf_symbols.hpp: naming a code address from the ELF symbol table of the module holding it.
//
// Why not dladdr alone: dladdr searches only the dynamic symbol table, which holds exported
// symbols (and only with -rdynamic for an executable). Coroutine resume functions are local
// symbols (clang's `f.resume`, g++'s `f.actor`), present only in .symtab. So the module's file
// is mapped and its .symtab searched; .dynsym when the file is stripped.
//
// Thread-safety: reentrant; nothing is cached (each call maps the file and unmaps it).
#pragma once

#include <cstdint>
#include <string>

namespace shoal::detail {

// The loaded module (executable or shared object) holding an address.
struct code_module {
  std::string path;           // a path that opens the module's file; empty: none found
  std::uintptr_t offset = 0;  // the address minus the module's load bias (ELF st_value space)
};

// Which module holds `code` (dl_iterate_phdr).
code_module find_code_module(const void* code);

// The raw (mangled) name of the function symbol covering `offset` in the ELF file at `path`, or
// an empty string.
std::string elf_function_at(const std::string& path, std::uintptr_t offset);

// A readable name for a mangled function symbol: demangled, with the coroutine clone suffix of
// clang (".resume") or g++ (".actor", whose parameter list names the frame type) turned back
// into the coroutine's own name.
std::string readable_function_name(const std::string& mangled);

}  // namespace shoal::detail
