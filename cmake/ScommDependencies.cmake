# Every dependency is a Debian package; scripts/setup.sh installs them.
if(SCOMM_SIMGRID)
  include(ScommSimgrid)
elseif(SCOMM_MPI STREQUAL "mpich")
  set(MPI_C_COMPILER mpicc.mpich CACHE FILEPATH "" FORCE)
  set(MPI_CXX_COMPILER mpicxx.mpich CACHE FILEPATH "" FORCE)
  set(MPIEXEC_EXECUTABLE /usr/bin/mpirun.mpich CACHE FILEPATH "" FORCE)
elseif(SCOMM_MPI STREQUAL "openmpi")
  set(MPI_C_COMPILER mpicc.openmpi CACHE FILEPATH "")
  set(MPI_CXX_COMPILER mpicxx.openmpi CACHE FILEPATH "")
  set(MPIEXEC_EXECUTABLE /usr/bin/mpirun.openmpi CACHE FILEPATH "")
endif()
if(NOT SCOMM_SIMGRID)
  find_package(MPI 3.0 REQUIRED COMPONENTS C CXX)
endif()
find_package(roaring REQUIRED)   # libroaring-dev: compressed bitmap sets
find_package(zstd REQUIRED)      # libzstd-dev: block-compressed cold lists
find_library(SDSL_LIBRARY sdsl REQUIRED)  # libsdsl-dev: rank/select, Elias-Fano, wavelet trees
find_path(SDSL_INCLUDE_DIR sdsl/bit_vectors.hpp REQUIRED)
find_library(BUDDY_LIBRARY bdd REQUIRED)  # libbdd-dev: BuDDy, builds BDD sets
find_path(BUDDY_INCLUDE_DIR bdd.h REQUIRED)

add_library(scomm_sdsl INTERFACE)
target_include_directories(scomm_sdsl SYSTEM INTERFACE ${SDSL_INCLUDE_DIR})
target_link_libraries(scomm_sdsl INTERFACE ${SDSL_LIBRARY})
add_library(scomm_buddy INTERFACE)
target_include_directories(scomm_buddy SYSTEM INTERFACE ${BUDDY_INCLUDE_DIR})
target_link_libraries(scomm_buddy INTERFACE ${BUDDY_LIBRARY})
find_package(PkgConfig REQUIRED)
pkg_check_modules(HWLOC REQUIRED IMPORTED_TARGET hwloc)  # libhwloc-dev: node-internal levels
