# Warnings are errors in every target the project builds itself (never imposed on consumers).
add_library(shoal_warnings INTERFACE)
target_compile_options(shoal_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Werror
  -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual -Wcast-align
  -Wmissing-declarations -Wimplicit-fallthrough
  $<$<CXX_COMPILER_ID:Clang>:-Wthread-safety -Wno-c++20-extensions>)
