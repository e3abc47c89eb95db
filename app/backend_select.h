#pragma once
#include <memory>
#include <string>

#include "core/backend.h"
#include "core/config.h"

namespace ringviz {

struct BackendSelection {
  std::unique_ptr<Backend> backend;
  // Set when `auto` fell back to the CPU: why no CUDA device was used (shown to the user).
  std::string notice;
};

// auto: CUDA when this build has it and a device is usable, the CPU otherwise (with a
// notice). cuda without a usable device throws InputError with the reason (exit code 2).
BackendSelection select_backend(BackendChoice choice);

}  // namespace ringviz
