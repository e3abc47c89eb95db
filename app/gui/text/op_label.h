#pragma once
#include <string>

#include "core/engine/contributor_label.h"
#include "core/engine/provenance.h"
#include "core/model/config.h"
#include "core/model/text.h"

namespace ringviz::gui {

// Every text here is in `language`, the one the GUI speaks (FrameContext::language).

// The operation as the panels name it ("AllGather" ...).
const char* op_label(Language language, Op op);

// The algorithm and the operation as the subject of a sentence: "Ring AllReduce", "tree AllGather".
std::string algorithm_op_label(Language language, Algorithm algorithm, Op op);

// The algorithm's own name for lane `lane` of its slots ("clockwise" for the bidirectional
// ring's first half); "" for an algorithm without lanes.
std::string lane_name(Language language, Algorithm algorithm, int lane);

// A slot's value is named by core's label_forms and reduction_label (core/engine/contributor_label.h),
// so the cells, packets and tooltips name it as the trace tables do.

// An unfinished result of the reduction: "partial sum", "running maximum" ...
const char* partial_result(Language language, ReduceOp reduce, bool plural = false);

}  // namespace ringviz::gui
