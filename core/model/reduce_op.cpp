#include "core/model/reduce_op.h"

namespace ringviz {

static_assert(spellings_are_unique(kReduceOpNames) && lists_exactly(kReduceOpNames, kAllReduceOps));

}  // namespace ringviz
