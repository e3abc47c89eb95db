#pragma once
#include <string>

#include "core/engine/contributor_label.h"
#include "core/engine/provenance.h"
#include "core/model/config.h"

namespace ringviz::gui {

// The operation as the panels name it, in the UI language ("AllGather" ...).
const char* op_label(Op op);

// The algorithm and the operation as the subject of a sentence: "Ring AllReduce", "tree AllGather".
std::string algorithm_op_label(Algorithm algorithm, Op op);

// The algorithm's own name for lane `lane` of its slots ("clockwise" for the bidirectional
// ring's first half), in the UI language; "" for an algorithm without lanes.
std::string lane_name(Algorithm algorithm, int lane);

// A slot's value is named by core's label_forms and reduction_label (core/engine/contributor_label.h),
// so the cells, packets and tooltips name it as the trace tables do.

// An unfinished result of the reduction in the UI language: "partial sum", "running maximum" ...
const char* partial_result(ReduceOp reduce, bool plural = false);

}  // namespace ringviz::gui
