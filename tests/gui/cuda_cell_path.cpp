// The GUI's own cell path (SessionModel, CellRenderer, CellSource) on the CUDA backend in a
// headless GL context: it must choose CUDA-OpenGL interop, and the GL buffers it writes must
// hold the bytes the upload path computes on the host. Built only with CUDA; exits 77 (ctest:
// skipped) without a usable device or a GL context.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "app/gui/render/cell_renderer.h"
#include "app/gui/state/cell_source.h"
#include "app/gui/state/session_model.h"
#include "app/platform/gl.h"
#include "app/platform/headless_context.h"
#include "core/engine/session.h"
#include "gpu/device/cuda_devices.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz::gui {
namespace {

constexpr int kSkipped = 77;

template <typename Word>
std::vector<Word> read_gl_buffer(unsigned buffer, std::size_t words) {
  std::vector<Word> out(words);
  glBindBuffer(GL_COPY_READ_BUFFER, buffer);
  glGetBufferSubData(GL_COPY_READ_BUFFER, 0, static_cast<GLsizeiptr>(words * sizeof(Word)), out.data());
  glBindBuffer(GL_COPY_READ_BUFFER, 0);
  return out;
}

// Bit for bit, except that any two NaNs match: the shader marks every NaN alike.
bool same_bins(const std::vector<float>& host, const std::vector<float>& device) {
  if (host.size() != device.size()) return false;
  for (std::size_t i = 0; i < host.size(); ++i)
    if (std::memcmp(&host[i], &device[i], sizeof(float)) != 0 && !(std::isnan(host[i]) && std::isnan(device[i])))
      return false;
  return true;
}

TEST_CASE("the GUI's cell path on the CUDA backend chooses interop and writes the upload path's bytes") {
  const Config configs[] = {
      ConfigBuilder().op(Op::allreduce).ranks(4).count(1001).dtype(DType::f32).reduce(ReduceOp::sum),
      ConfigBuilder().op(Op::reducescatter).ranks(3).count(200003).dtype(DType::f16).reduce(ReduceOp::avg),
      ConfigBuilder().op(Op::allgather).ranks(5).count(3).dtype(DType::bf16).reduce(ReduceOp::max),
      ConfigBuilder().op(Op::allreduce).ranks(8).count(4096).dtype(DType::i64).reduce(ReduceOp::min),
  };
  for (const Config& config : configs) {
    SessionModel model;
    std::string error;
    REQUIRE_MESSAGE(model.rebuild(config, BackendChoice::cuda, error), error);
    CellRenderer renderer;
    REQUIRE_MESSAGE(renderer.init(error), error);
    CellSource source;  // after the renderer: unregisters its buffers first
    Session reference(config, make_cpu_backend(0));
    const int rounds = model.session().round_count();
    for (int round : {0, rounds / 2, rounds}) {
      source.bring_to(renderer, model, round);
      INFO("ranks " << config.ranks << ", count " << config.count << ", round " << round << ": "
                    << source.reason());
      REQUIRE(source.kind() == CellSourceKind::interop);
      reference.seek(round);
      VisualCells expected;
      fill_visual_cells(config, reference.layout(), reference.schedule(), round, reference.buffers(),
                        reference.provenance(), model.range(), expected);
      glFinish();
      CHECK(read_gl_buffer<std::uint32_t>(renderer.cells_buffer(), expected.cells.size()) == expected.cells);
      CHECK(same_bins(expected.bins, read_gl_buffer<float>(renderer.bins_buffer(), expected.bins.size())));
      // The cell records the views read still come from the host; the bins never do.
      CHECK(model.state_at(round).cells.bins.empty());
    }
  }
}

}  // namespace
}  // namespace ringviz::gui

int main(int argc, char** argv) {
  const ringviz::gpu::CudaProbe& probe = ringviz::gpu::probe_cuda();
  if (!probe.usable) {
    std::printf("SKIPPED: the GUI's CUDA cell path needs a GPU: %s\n", probe.reason.c_str());
    return ringviz::gui::kSkipped;
  }
  ringviz::platform::HeadlessContext context;
  std::string why;
  if (!ringviz::platform::open_headless_context(context, why)) {
    std::printf("SKIPPED: no OpenGL context here:\n%s\n", why.c_str());
    return ringviz::gui::kSkipped;
  }
  std::printf("OpenGL renderer: %s\n", reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
  doctest::Context tests(argc, argv);
  return tests.run();
}
