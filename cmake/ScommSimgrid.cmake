# SCOMM_SIMGRID: scomm on SimGrid's SMPI (libsimgrid-dev), which simulates thousands of MPI ranks
# in one process on a laptop. SMPI's mpi.h and library stand in for the MPI; the libraries are
# static and the benchmark a shared object, which smpirun loads once per simulated rank (its
# dlopen privatization), so every rank has its own copy of scomm's library context.
find_path(SIMGRID_SMPI_INCLUDE_DIR smpi/mpi.h REQUIRED)
find_library(SIMGRID_LIBRARY simgrid REQUIRED)
find_program(SMPIRUN_EXECUTABLE smpirun REQUIRED)
set(BUILD_SHARED_LIBS OFF CACHE BOOL "" FORCE)
set(SCOMM_BUILD_TESTS OFF CACHE BOOL "" FORCE)
foreach(language C CXX)
  add_library(MPI::MPI_${language} INTERFACE IMPORTED)
  target_include_directories(MPI::MPI_${language} SYSTEM INTERFACE ${SIMGRID_SMPI_INCLUDE_DIR}/smpi)
  target_link_libraries(MPI::MPI_${language} INTERFACE ${SIMGRID_LIBRARY})
endforeach()
# A function-local static of an inline function (the library context) is an STB_GNU_UNIQUE
# symbol by default, which the loader would share between the ranks' copies.
add_compile_options(-fno-gnu-unique)
