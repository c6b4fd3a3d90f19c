# scomm_add_mpi_program(target sources...): an MPI program. On a real MPI an executable; on
# SimGrid's SMPI a shared object, which smpirun loads once per simulated rank (its dlopen
# privatization), so that every rank has its own copy of the statically linked libraries (scomm's
# library context, GoogleTest's registry).
function(scomm_add_mpi_program target)
  if(SCOMM_SIMGRID)
    add_library(${target} SHARED ${ARGN})
    set_target_properties(${target} PROPERTIES PREFIX "" SUFFIX "")
    target_link_options(${target} PRIVATE -Wl,-z,defs)
  else()
    add_executable(${target} ${ARGN})
  endif()
endfunction()
