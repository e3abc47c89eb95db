#pragma once
#include "core/model/config.h"

namespace ringviz::gui {

// The operation as the panels name it, in the UI language ("AllGather" ...).
const char* op_label(Op op);

}  // namespace ringviz::gui
