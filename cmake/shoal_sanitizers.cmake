# SHOAL_SANITIZE=address,undefined or thread: applied to everything this build compiles and links.
if(SHOAL_SANITIZE)
  set(shoal_san_flags -fsanitize=${SHOAL_SANITIZE} -fno-omit-frame-pointer)
  if(SHOAL_SANITIZE MATCHES "undefined")
    list(APPEND shoal_san_flags -fno-sanitize-recover=all)
  endif()
  add_compile_options(${shoal_san_flags})
  add_link_options(${shoal_san_flags})
  message(STATUS "shoal: sanitizers ${SHOAL_SANITIZE}")
endif()

# SHOAL_FUZZ: the libFuzzer targets of tests/fuzz, everything instrumented for coverage (clang
# only; with SHOAL_SANITIZE=address,undefined, as the fuzz preset sets). Off: each target's
# entry point is built into a replay of its seed corpus instead, run by ctest.
option(SHOAL_FUZZ "Build the libFuzzer targets (clang only)" OFF)
if(SHOAL_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "SHOAL_FUZZ needs clang (libFuzzer)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
