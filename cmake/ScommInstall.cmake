# `cmake --install` gives headers, libraries, find_package(scomm) config files and scomm.pc.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
install(TARGETS scomm scomm_group scomm_context EXPORT scommTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY src/scomm DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
install(EXPORT scommTargets NAMESPACE scomm:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/scomm)
configure_package_config_file(cmake/scommConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/scommConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/scomm)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/scommConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/scommConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/scommConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/scomm)
configure_file(cmake/scomm.pc.in ${CMAKE_CURRENT_BINARY_DIR}/scomm.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/scomm.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
