#pragma once
#include "core/model/dtype.h"
#include "core/model/layout.h"
#include "core/model/reduce_op.h"

namespace ringviz {

// What a backend (and the round planner) needs to know to execute rounds: fixed for the life
// of a session.
struct CollectiveShape {
  DType dtype = DType::f32;
  ReduceOp reduce = ReduceOp::sum;
  int ranks = 1;
  SlotLayout layout;
};

}  // namespace ringviz
