# scomm_add_mpi_test(NAME target [PROCS 1 2 3 ...] [ARGS ...]): registers one ctest per process count, run as
# `mpirun --oversubscribe -np P target` with the base MPI's own launcher (smpirun on SimGrid).
if(SCOMM_SIMGRID)
  # Every simulated rank's copy of GoogleTest takes pthread keys, and glibc has 1,024 per process:
  # at thousands of ranks GoogleTest is built without pthreads (each rank runs on one thread)
  # from Debian's googletest sources.
  set(gtest_disable_pthreads ON CACHE BOOL "" FORCE)
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  add_subdirectory(/usr/src/googletest/googletest ${CMAKE_BINARY_DIR}/googletest EXCLUDE_FROM_ALL)
else()
  find_package(GTest REQUIRED)
endif()
set(SCOMM_TEST_PROCS 1 2 3 4 5 7 8 CACHE STRING "Process counts of MPI tests")
if(SCOMM_SIMGRID)
  set(SCOMM_MPI_LAUNCHER ${SCOMM_SMPI_LAUNCHER})  # ScommSimgrid.cmake
elseif(SCOMM_MPI STREQUAL "mpich")
  set(SCOMM_MPI_LAUNCHER ${MPIEXEC_EXECUTABLE})
else()
  set(SCOMM_MPI_LAUNCHER ${MPIEXEC_EXECUTABLE} --oversubscribe)
endif()

function(scomm_add_mpi_test name target)
  cmake_parse_arguments(ARG "" "TIMEOUT" "PROCS;ARGS" ${ARGN})
  if(NOT ARG_PROCS)
    set(ARG_PROCS ${SCOMM_TEST_PROCS})
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 120)
  endif()
  foreach(np IN LISTS ARG_PROCS)
    # An oversubscribed run holds every core of a two-core machine; one rank holds one, and so
    # does a SimGrid run, whose simulated ranks take turns on one thread.
    set(cores 2)
    if(np EQUAL 1 OR SCOMM_SIMGRID)
      set(cores 1)
    endif()
    add_test(NAME ${name}.np${np}
             COMMAND ${SCOMM_MPI_LAUNCHER} -np ${np} $<TARGET_FILE:${target}>
                     ${ARG_ARGS})
    set_tests_properties(${name}.np${np} PROPERTIES TIMEOUT ${ARG_TIMEOUT} LABELS mpi
      PROCESSORS ${cores}
      ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1")
  endforeach()
endfunction()
