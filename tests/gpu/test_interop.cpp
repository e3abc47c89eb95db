// The heatmap's two paths, CUDA writing into the GL buffers through interop and the CPU
// filling them with glBufferSubData, must leave the same bytes in the buffers: the shader
// reads nothing else, so the same bytes draw the same pixels.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "core/input/initial_values.h"
#include "core/engine/session.h"
#include "core/teaching/visual_cells.h"
#include "gpu/interop/gl_interop.h"
#include "tests/gpu/compare.h"
#include "tests/gpu/egl_context.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

std::vector<Config> interop_configs() {
  std::vector<Config> configs;
  const DType dtypes[] = {DType::f32, DType::f16, DType::bf16, DType::f64, DType::i32, DType::i64};
  std::uint64_t seed = 40;
  for (Op op : {Op::allreduce, Op::reducescatter, Op::allgather})
    for (int ranks : {1, 2, 3, 5, 8})
      for (std::int64_t count : {std::int64_t{3}, std::int64_t{1001}, std::int64_t{200003}}) {
        Config config = ConfigBuilder().op(op).ranks(ranks).count(count).dtype(dtypes[seed % 6])
            .reduce(seed % 2 ? ReduceOp::avg : ReduceOp::max);
        config.init = test::inputs_for(config, seed++);
        configs.push_back(config);
      }
  return configs;
}

// Float bins equal bit for bit, except that two NaNs count as equal: the shader marks any NaN
// the same way, and x86 itself picks NaN bits by operand order.
std::string bins_difference(const std::vector<float>& cpu, const std::vector<float>& cuda) {
  if (cpu.size() != cuda.size()) return "sizes differ";
  for (std::size_t i = 0; i < cpu.size(); ++i) {
    if (std::memcmp(&cpu[i], &cuda[i], sizeof(float)) == 0) continue;
    if (std::isnan(cpu[i]) && std::isnan(cuda[i])) continue;
    return "float " + std::to_string(i) + ": cpu " + std::to_string(cpu[i]) + ", cuda " + std::to_string(cuda[i]);
  }
  return "";
}

TEST_CASE("heatmap buffers written by CUDA through GL interop equal the CPU path's upload") {
  std::string why;
  auto gl_context = test::HeadlessGl::create(why);
  if (!gl_context) {
    MESSAGE("interop check skipped: no headless OpenGL context here (" << why << ")");
    return;
  }
  const test::GlFunctions& gl = gl_context->gl();
  MESSAGE("OpenGL renderer: " << gl_context->renderer());
  int compared = 0;
  for (const Config& config : interop_configs()) {
    Session session(config, gpu::make_cuda_backend());
    Session reference(config, make_cpu_backend(0));
    const SlotLayout& layout = session.layout();
    const int n = config.ranks;
    const int bins_per_slot = bins_per_slot_for(layout, n);
    const long cells_bytes = static_cast<long>(n) * n * kCellWords * 4;
    const long bins_bytes = static_cast<long>(n) * n * bins_per_slot * kBinFloats * 4;
    // Two pairs of buffers: one filled by interop, one uploaded from the host.
    unsigned int buffers[4] = {};
    gl.gen_buffers(4, buffers);
    for (int i = 0; i < 4; ++i) {
      gl.bind_buffer(test::kGlArrayBuffer, buffers[i]);
      gl.buffer_data(test::kGlArrayBuffer, i % 2 ? bins_bytes : cells_bytes, nullptr, test::kGlDynamicDraw);
    }
    {
      std::unique_ptr<gpu::VisualCellsInterop> interop;
      try {
        interop = std::make_unique<gpu::VisualCellsInterop>(buffers[0], buffers[1]);
      } catch (const gpu::CudaError& error) {
        gl.delete_buffers(4, buffers);
        MESSAGE("interop check skipped: " << error.what());
        return;
      }
      auto& backend = static_cast<gpu::CudaBackend&>(session.backend());
      ValueRange range = value_range(reference.buffers(), reference.provenance(), layout);
      for (int round : {0, session.round_count() / 2, session.round_count()}) {
        session.seek(round);
        reference.seek(round);
        interop->fill(backend, config, layout, session.schedule(), round, session.provenance(), range);
        VisualCells cells;
        fill_visual_cells(config, layout, reference.schedule(), round, reference.buffers(),
                          reference.provenance(), range, cells);
        gl.bind_buffer(test::kGlArrayBuffer, buffers[2]);
        gl.buffer_sub_data(test::kGlArrayBuffer, 0, cells_bytes, cells.cells.data());
        gl.bind_buffer(test::kGlArrayBuffer, buffers[3]);
        gl.buffer_sub_data(test::kGlArrayBuffer, 0, bins_bytes, cells.bins.data());
        gl.finish();
        std::vector<std::uint32_t> interop_cells(cells.cells.size()), upload_cells(cells.cells.size());
        std::vector<float> interop_bins(cells.bins.size()), upload_bins(cells.bins.size());
        gl.bind_buffer(test::kGlArrayBuffer, buffers[0]);
        gl.get_buffer_sub_data(test::kGlArrayBuffer, 0, cells_bytes, interop_cells.data());
        gl.bind_buffer(test::kGlArrayBuffer, buffers[1]);
        gl.get_buffer_sub_data(test::kGlArrayBuffer, 0, bins_bytes, interop_bins.data());
        gl.bind_buffer(test::kGlArrayBuffer, buffers[2]);
        gl.get_buffer_sub_data(test::kGlArrayBuffer, 0, cells_bytes, upload_cells.data());
        gl.bind_buffer(test::kGlArrayBuffer, buffers[3]);
        gl.get_buffer_sub_data(test::kGlArrayBuffer, 0, bins_bytes, upload_bins.data());
        INFO(test::describe(config) << ", round " << round);
        CHECK(interop_cells == upload_cells);
        CHECK(bins_difference(upload_bins, interop_bins) == "");
        ++compared;
      }
    }  // the interop object unregisters both buffers before they are deleted
    gl.delete_buffers(4, buffers);
  }
  MESSAGE("compared " << compared << " heatmap states through interop and upload");
}

}  // namespace
}  // namespace ringviz
