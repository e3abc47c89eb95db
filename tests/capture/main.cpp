#include <cstdlib>

#include <doctest/doctest.h>

int main(int argc, char** argv) {
  // CI runs as root, which OpenMPI refuses unless told; OpenMPI's own allocations outlive
  // MPI_Finalize, which LeakSanitizer would report against every rank of a sanitizer build.
  ::setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
  ::setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  ::setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
  return doctest::Context(argc, argv).run();
}
