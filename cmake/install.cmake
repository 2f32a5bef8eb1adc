# `cmake --install BUILD [--prefix P]`: the gpusynth (and gpusynth-neural) executables in bin/,
# every module's static library in lib/, their headers under include/gpusynth/<folder>/, the
# bundled problems, sbatch scripts and docs under share/gpusynth/, and a CMake package, so that
# another project links the libraries by
#
#   find_package(gpusynth 0.1 REQUIRED)       # CMAKE_PREFIX_PATH=P
#   target_link_libraries(app PRIVATE gpusynth::compiler)   # gpusynth::<folder>, with its layers below
#
# (tests/package builds such a project against an installed tree.)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

get_property(_modules GLOBAL PROPERTY GPUSYNTH_MODULES)
set(_targets "")
foreach(_module IN LISTS _modules)
  list(APPEND _targets gpusynth_${_module})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${_module}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gpusynth/${_module}
          FILES_MATCHING PATTERN "*.h" PATTERN "*.cuh" PATTERN "*.def")
endforeach()
install(TARGETS ${_targets} EXPORT gpusynthTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gpusynth)
install(TARGETS gpusynth RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET gpusynth-neural)
  install(TARGETS gpusynth-neural RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})  # beside gpusynth
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/problems ${PROJECT_SOURCE_DIR}/slurm ${PROJECT_SOURCE_DIR}/docs
        DESTINATION ${CMAKE_INSTALL_DATADIR}/gpusynth)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/CITATION.cff ${PROJECT_SOURCE_DIR}/CHANGELOG.md
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/gpusynth)

set(_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/gpusynth)
install(EXPORT gpusynthTargets NAMESPACE gpusynth:: DESTINATION ${_cmake_dir})
# What the package's consumers must find again: the libraries' public dependencies, and the
# private ones of static libraries (they are linked into the consumer).
set(GPUSYNTH_PACKAGE_CUDA ${GPUSYNTH_CUDA})
set(GPUSYNTH_PACKAGE_MPI ${GPUSYNTH_MPI})
set(GPUSYNTH_PACKAGE_TORCH ${GPUSYNTH_TORCH})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/gpusynthConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/gpusynthConfig.cmake INSTALL_DESTINATION ${_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gpusynthConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gpusynthConfig.cmake ${PROJECT_BINARY_DIR}/gpusynthConfigVersion.cmake
        DESTINATION ${_cmake_dir})
