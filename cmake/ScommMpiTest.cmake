# scomm_add_mpi_test(NAME target [PROCS 1 2 3 ...] [ARGS ...]): registers one ctest per process count, run as
# `mpirun --oversubscribe -np P target` with the base MPI's own launcher.
find_package(GTest REQUIRED)
set(SCOMM_TEST_PROCS 1 2 3 4 5 8 CACHE STRING "Process counts of MPI tests")
if(SCOMM_MPI STREQUAL "mpich")
  set(SCOMM_MPIEXEC_FLAGS "")
else()
  set(SCOMM_MPIEXEC_FLAGS --oversubscribe)
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
    add_test(NAME ${name}.np${np}
             COMMAND ${MPIEXEC_EXECUTABLE} ${SCOMM_MPIEXEC_FLAGS} -np ${np} $<TARGET_FILE:${target}>
                     ${ARG_ARGS})
    set_tests_properties(${name}.np${np} PROPERTIES TIMEOUT ${ARG_TIMEOUT} LABELS mpi
      PROCESSORS 2
      ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1")
  endforeach()
endfunction()
