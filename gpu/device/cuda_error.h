#pragma once
// The one exception the CUDA backend throws. Its message is a whole sentence meant for the
// user: what failed, on which GPU, and what to do about it. No CUDA header here, so app/ code
// that only catches it needs nothing from the toolkit.
#include <stdexcept>
#include <string>

namespace ringviz::gpu {

struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace ringviz::gpu
