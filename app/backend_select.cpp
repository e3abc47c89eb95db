#include "app/backend_select.h"

namespace ringviz {

BackendSelection select_backend(BackendChoice choice) {
  if (choice == BackendChoice::cpu) return {make_cpu_backend(), ""};
  const std::string reason =
      "this build has no CUDA backend (nvcc was not found when it was configured)";
  if (choice == BackendChoice::cuda)
    throw InputError("--backend cuda: " + reason + "; use --backend cpu or auto");
  return {make_cpu_backend(), "using the CPU backend: " + reason};
}

}  // namespace ringviz
