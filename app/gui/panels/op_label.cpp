#include "app/gui/panels/op_label.h"

#include "app/gui/text/strings.h"

namespace ringviz::gui {

const char* op_label(Op op) {
  const UiStrings& t = ui_strings();
  return op == Op::allgather ? t.op_allgather : op == Op::reducescatter ? t.op_reducescatter : t.op_allreduce;
}

}  // namespace ringviz::gui
