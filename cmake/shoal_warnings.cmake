# Warnings are errors in every target the project builds itself (never imposed on consumers).
add_library(shoal_warnings INTERFACE)
target_compile_options(shoal_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Werror
  -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual -Wcast-align
  -Wmissing-declarations -Wimplicit-fallthrough
  $<$<CXX_COMPILER_ID:Clang>:-Wthread-safety -Wno-c++20-extensions>)
# A unity build compiles each source as if included by a generated file, so g++ takes a source's
# anonymous-namespace types for a header's and warns of "subobject linkage" where a normal build
# does not (g++ only warns when the type is in the main file's own text).
if(CMAKE_UNITY_BUILD)
  target_compile_options(shoal_warnings INTERFACE $<$<CXX_COMPILER_ID:GNU>:-Wno-subobject-linkage>)
endif()
