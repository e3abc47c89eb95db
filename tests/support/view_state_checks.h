#pragma once
// One view read back from a command line or a link is the view that was written: every field
// of ViewState, the config's included (the Copy command's and the page link's round trips),
// over one shared list of sample views.
#include <doctest/doctest.h>

#include <vector>

#include "app/gui/share/view_command.h"
#include "core/model/checked_value.h"
#include "tests/support/config_builder.h"

namespace ringviz::test {

inline void check_same_view(const gui::ViewState& got, const gui::ViewState& want) {
  CHECK(got.config.op == want.config.op);
  CHECK(got.config.algorithm == want.config.algorithm);
  CHECK(got.config.order == want.config.order);
  CHECK(got.config.ranks == want.config.ranks);
  CHECK(got.config.count == want.config.count);
  CHECK(got.config.dtype == want.config.dtype);
  CHECK(got.config.reduce == want.config.reduce);
  CHECK(got.config.init.kind == want.config.init.kind);
  CHECK(got.config.init.random_seed == want.config.init.random_seed);
  CHECK(got.config.init.path == want.config.init.path);
  CHECK(got.config.init.values == want.config.init.values);
  CHECK(got.config.channels == want.config.channels);
  CHECK(got.config.slices == want.config.slices);
  CHECK(got.config.root == want.config.root);
  CHECK(got.open == want.open);
  CHECK(got.view == want.view);
  CHECK(got.round == want.round);  // exactly: the shortest text reads back as the same double
  CHECK(got.language == want.language);
  CHECK(got.present == want.present);
  CHECK(got.predict == want.predict);
}

// Every operation in every centre view, each at a round with no short decimal (the text must
// still read back exactly), then the algorithm, order, type, reduction, inputs, pipelining and
// the classroom modes.
inline std::vector<gui::ViewState> sample_views() {
  std::vector<gui::ViewState> views;
  int k = 0;
  for (Op op : {Op::allgather, Op::reducescatter, Op::allreduce})
    for (CentreView view : kAllCentreViews) {
      gui::ViewState state;
      state.config = ConfigBuilder().op(op).ranks(3 + k % 4).count(6 + k);
      state.view = view;
      state.round = 1.0 / 3.0 + k % 2;
      views.push_back(state);
      ++k;
    }
  gui::ViewState varied;
  varied.config = ConfigBuilder().op(Op::reducescatter).algorithm(Algorithm::rhd).order(Order::nccl).ranks(8)
      .count(16).dtype(DType::bf16).reduce(ReduceOp::max).init("random:42");
  varied.round = 2;
  varied.language = Language::zh;
  views.push_back(varied);

  gui::ViewState pipelined;
  pipelined.config = ConfigBuilder().channels(2).slices(4);
  pipelined.round = 1.5;
  pipelined.present = true;
  views.push_back(pipelined);

  gui::ViewState predicting;
  predicting.predict = true;
  predicting.config = ConfigBuilder().ranks(2).count(3).algorithm(Algorithm::tree).init(InitKind::values);
  predicting.config.init.values = numbers_of_reals({{0.1, -2.5, 1e-7}, {123456789.125, 0, 7}});
  predicting.round = 0.25;
  predicting.view = CentreView::devices;
  views.push_back(predicting);

  gui::ViewState broadcast;  // a root other than GPU 0
  broadcast.config = ConfigBuilder().op(Op::broadcast).ranks(5).root(3);
  broadcast.round = 2.5;
  views.push_back(broadcast);

  gui::ViewState in_switch;  // an in-switch reduction needs its machine, which the text names
  in_switch.config = ConfigBuilder().algorithm(Algorithm::nvls).ranks(8).count(64);
  in_switch.round = 1;
  views.push_back(in_switch);
  return views;
}

}  // namespace ringviz::test
