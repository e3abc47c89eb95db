#pragma once
#include <string>

#include "core/model/input_error.h"

namespace ringviz {

// The message `action` throws as InputError, or "(no error)": lets a CHECK compare the words.
template <class Action>
std::string input_error(Action action) {
  try {
    action();
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

}  // namespace ringviz
