# SCOMM_SIMGRID: scomm on SimGrid's SMPI (libsimgrid-dev), which simulates thousands of MPI ranks
# in one process on a laptop. SMPI's mpi.h and library stand in for the MPI; the libraries are
# static and the MPI programs shared objects (ScommMpiProgram.cmake), which smpirun loads once per
# simulated rank (its dlopen privatization), so every rank has its own copy of scomm's library
# context.
find_path(SIMGRID_SMPI_INCLUDE_DIR smpi/mpi.h REQUIRED)
find_library(SIMGRID_LIBRARY simgrid REQUIRED)
find_program(SMPIRUN_EXECUTABLE smpirun REQUIRED)
set(BUILD_SHARED_LIBS OFF CACHE BOOL "" FORCE)
# The MPI tests run under smpirun (ScommMpiTest.cmake); the MPI-free unit tests gain nothing here.
set(SCOMM_BUILD_UNIT_TESTS OFF CACHE BOOL "" FORCE)
foreach(language C CXX)
  add_library(MPI::MPI_${language} INTERFACE IMPORTED)
  target_include_directories(MPI::MPI_${language} SYSTEM INTERFACE ${SIMGRID_SMPI_INCLUDE_DIR}/smpi)
  target_link_libraries(MPI::MPI_${language} INTERFACE ${SIMGRID_LIBRARY})
endforeach()
# A function-local static of an inline function (the library context) is an STB_GNU_UNIQUE
# symbol by default, which the loader would share between the ranks' copies.
add_compile_options(-fno-gnu-unique)

# The simulated machine of the tests: a homogeneous cluster, one host per rank, 1 us and 10 GB/s
# links to a backbone. Computation is not simulated (SMPI's own MPI functions are charged nothing
# for theirs either); small stacks let thousands of ranks fit.
set(SCOMM_SMPI_HOSTS 4096 CACHE STRING "Hosts of the simulated cluster of the SMPI tests")
set(SCOMM_SMPI_PLATFORM ${CMAKE_BINARY_DIR}/smpi-cluster.xml)
math(EXPR last_host "${SCOMM_SMPI_HOSTS} - 1")
file(WRITE ${SCOMM_SMPI_PLATFORM} "<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">
<platform version=\"4.1\">
  <cluster id=\"cluster\" prefix=\"node-\" suffix=\"\" radical=\"0-${last_host}\" speed=\"1Gf\"
           bw=\"10GBps\" lat=\"1us\" bb_bw=\"1TBps\" bb_lat=\"0\"/>
</platform>
")
set(SCOMM_SMPI_LAUNCHER ${SMPIRUN_EXECUTABLE} -platform ${SCOMM_SMPI_PLATFORM}
    --cfg=smpi/host-speed:1Gf --cfg=smpi/simulate-computation:no --cfg=contexts/stack-size:1024
    --log=root.thres:warning)
