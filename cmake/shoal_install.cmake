# Installs libshoal, its headers, a CMake package (find_package(shoal)) and a pkg-config file.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS shoal EXPORT shoal-targets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/shoal DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT shoal-targets NAMESPACE shoal:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/shoal)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/shoal-config.cmake.in
  ${PROJECT_BINARY_DIR}/shoal-config.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/shoal)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/shoal-config-version.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/shoal-config.cmake ${PROJECT_BINARY_DIR}/shoal-config-version.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/shoal)

# The .pc file finds the prefix relative to itself (for `cmake --install --prefix`).
file(RELATIVE_PATH SHOAL_PC_TO_PREFIX "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
configure_file(${PROJECT_SOURCE_DIR}/cmake/shoal.pc.in ${PROJECT_BINARY_DIR}/shoal.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/shoal.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
