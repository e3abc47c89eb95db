#include "app/gui/text/traffic_formula.h"

#include <algorithm>

#include "app/gui/text/op_label.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"
#include "core/engine/traffic.h"

namespace ringviz::gui {

namespace {

// The ring, direct and rhd (N a power of two) all send (N-1)/N of the buffer per pass.
TrafficFormula pass_formula(const UiStrings& t, const std::string& subject, Op op, int n, double m) {
  TrafficFormula f;
  const bool allreduce = op == Op::allreduce;
  f.busiest_bytes = allreduce ? ring_allreduce_bytes_per_gpu(n, m) : ring_pass_bytes_per_gpu(n, m);
  f.formula = format(allreduce ? t.traffic_formula_allreduce : t.traffic_formula_pass, subject.c_str());
  f.values = format(allreduce ? t.traffic_formula_values : t.traffic_formula_pass_values, n, n,
                    format_bytes(m).c_str(), format_bytes(f.busiest_bytes).c_str());
  return f;
}

// naive: GPU 0 is the hub every byte passes (core/schedule/schedule_naive.cpp).
TrafficFormula naive_formula(const UiStrings& t, const std::string& subject, Op op, int n, double m) {
  TrafficFormula f;
  if (op == Op::allreduce) {
    f.busiest_bytes = (n - 1) * m;
    f.formula = format(t.traffic_naive_allreduce, subject.c_str());
    f.values = format(t.traffic_naive_allreduce_values, n, format_bytes(m).c_str(), format_bytes(f.busiest_bytes).c_str());
  } else if (op == Op::reducescatter) {
    const double hub = (n - 1) * m / n;
    f.busiest_bytes = std::max(m, hub);
    f.formula = format(t.traffic_naive_reducescatter, subject.c_str());
    f.values = format(t.traffic_naive_reducescatter_values, format_bytes(m).c_str(), format_bytes(hub).c_str());
  } else {
    const double hub = static_cast<double>(n - 1) * (n - 1) * m / n;
    f.busiest_bytes = std::max(hub, m / n);
    f.formula = format(t.traffic_naive_allgather, subject.c_str());
    f.values = format(t.traffic_naive_allgather_values, n, n, n, format_bytes(m).c_str(), format_bytes(hub).c_str());
  }
  return f;
}

// tree and tree-pipelined move the whole buffer over every edge once each way: a GPU sends M
// to its parent and M to each child, so the busiest is the first with two children.
TrafficFormula tree_formula(const UiStrings& t, const std::string& subject, int n, double m) {
  TrafficFormula f;
  int busiest_gpu = 0, busiest_buffers = 0;
  for (int r = 0; r < n; ++r) {
    const int buffers = (r > 0 ? 1 : 0) + (2 * r + 1 < n ? 1 : 0) + (2 * r + 2 < n ? 1 : 0);
    if (buffers > busiest_buffers) {
      busiest_buffers = buffers;
      busiest_gpu = r;
    }
  }
  f.busiest_bytes = busiest_buffers * m;
  f.formula = format(t.traffic_tree, subject.c_str());
  f.values = format(t.traffic_tree_values, busiest_gpu, busiest_buffers, format_bytes(m).c_str(),
                    format_bytes(f.busiest_bytes).c_str());
  return f;
}

}  // namespace

TrafficFormula traffic_formula(Algorithm algorithm, Op op, int ranks, double buffer_bytes) {
  const UiStrings& t = ui_strings();
  const std::string subject = algorithm_op_label(algorithm, op);
  switch (algorithm) {
    case Algorithm::naive:
      return naive_formula(t, subject, op, ranks, buffer_bytes);
    case Algorithm::tree:
    case Algorithm::tree_pipelined:
      return tree_formula(t, subject, ranks, buffer_bytes);
    case Algorithm::rhd: {
      TrafficFormula f = pass_formula(t, subject, op, ranks, buffer_bytes);
      if ((ranks & (ranks - 1)) != 0) f.note = format(t.traffic_rhd_note, ranks);
      return f;
    }
    case Algorithm::ring:
    case Algorithm::direct:
      break;
  }
  return pass_formula(t, subject, op, ranks, buffer_bytes);
}

double formula_buffer_bytes(const Config& config) {
  const double element = static_cast<double>(dtype_size(config.dtype));
  return static_cast<double>(config.count) * element * (config.op == Op::allgather ? config.ranks : 1);
}

}  // namespace ringviz::gui
