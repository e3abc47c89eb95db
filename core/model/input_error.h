#pragma once
#include <stdexcept>

namespace ringviz {

// Bad user input (a flag, a file, a value out of range). The message names the field or the
// file position and, where it helps, the allowed values.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace ringviz
