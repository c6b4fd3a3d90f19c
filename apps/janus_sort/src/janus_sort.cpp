// The two builds of Janus quicksort, instantiated for the arithmetic element types.
#include "janus_sort/janus_sort.hpp"

#include "sorter.hpp"

namespace janus {

template <class T>
void sort(std::vector<T>& data, SCOMM_Comm comm, const Options& options) {
  detail::run<T, detail::ScommBackend>(data, comm, options);
}

template <class T>
void sort_mpi(std::vector<T>& data, MPI_Comm comm, const Options& options) {
  detail::run<T, detail::MpiBackend>(data, comm, options);
}

#define JANUS_SORT_INSTANTIATE(T)                                     \
  template void sort<T>(std::vector<T>&, SCOMM_Comm, const Options&); \
  template void sort_mpi<T>(std::vector<T>&, MPI_Comm, const Options&);
JANUS_SORT_INSTANTIATE(int)
JANUS_SORT_INSTANTIATE(unsigned)
JANUS_SORT_INSTANTIATE(long)
JANUS_SORT_INSTANTIATE(unsigned long)
JANUS_SORT_INSTANTIATE(long long)
JANUS_SORT_INSTANTIATE(unsigned long long)
JANUS_SORT_INSTANTIATE(float)
JANUS_SORT_INSTANTIATE(double)
#undef JANUS_SORT_INSTANTIATE

}  // namespace janus
