#pragma once
// One view read back from a command line or a link is the view that was written: every field
// of ViewState, the config's included (the Copy command's and the page link's round trips).
#include <doctest/doctest.h>

#include "app/gui/share/view_command.h"

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

}  // namespace ringviz::test
