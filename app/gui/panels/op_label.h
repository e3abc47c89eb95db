#pragma once
#include <string>

#include "core/engine/provenance.h"
#include "core/model/config.h"

namespace ringviz::gui {

// The operation as the panels name it, in the UI language ("AllGather" ...).
const char* op_label(Op op);

// The algorithm and the operation as the subject of a sentence: "Ring AllReduce", "tree AllGather".
std::string algorithm_op_label(Algorithm algorithm, Op op);

// A slot's value named by the reduction that made it (docs/architecture.md, "Collective
// semantics"): "a0+b0" for sum, "a0×b0" for prod, "max(a0,b0)", "min(a0,b0)", and for avg the
// sum until the last term is in, then "mean(a0,b0,c0,d0)"; more than four terms compressed
// ("max(a0,…,h0) (8)"). Copies and single terms read as core's slot_label has them.
std::string reduction_label(const Config& config, const RankSet& contributors, int slot);

// An unfinished result of the reduction in the UI language: "partial sum", "running maximum" ...
const char* partial_result(ReduceOp reduce, bool plural = false);

}  // namespace ringviz::gui
