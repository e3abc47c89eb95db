// The one decision between CUDA-OpenGL interop and the upload of host-built cells
// (app/gui/state/cell_source.h), taken without a GL context: only the CUDA backend on a GL
// context backed by a CUDA device may write the cells in place.
#include <doctest/doctest.h>

#include "app/gui/state/cell_source.h"
#include "app/gui/state/session_model.h"
#include "core/engine/backend.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

using namespace ringviz;
using namespace ringviz::gui;

namespace {

// A host backend that calls itself "cuda", to reach the checks after the backend's.
class HostBackendNamedCuda final : public Backend {
 public:
  std::string name() const override { return "cuda"; }
  void load(const CollectiveShape&, const BufferState&) override {}
  void store(const BufferState&) override {}
  void execute(const Round&) override {}
  void fetch(BufferState&) const override {}
};

}  // namespace

TEST_CASE("the CPU backend's cells are uploaded from host memory, and the reason says so") {
  auto backend = make_cpu_backend(1);
  const CellSourceChoice choice = choose_cell_source(*backend, "NVIDIA H200/PCIe/SSE2", 1, 2);
  CHECK(choice.kind == CellSourceKind::upload);
  CHECK(choice.writer == nullptr);
  CHECK(choice.reason == "CPU backend: cells uploaded from host memory");
  CHECK(std::string(cell_source_name(choice.kind)) == "upload");
}

TEST_CASE("a CUDA backend drawn by llvmpipe uploads, since interop needs the NVIDIA driver's GL") {
  HostBackendNamedCuda backend;
  const CellSourceChoice choice = choose_cell_source(backend, "llvmpipe (LLVM 15.0.6, 256 bits)", 1, 2);
  CHECK(choice.kind == CellSourceKind::upload);
  CHECK(choice.reason == "CUDA backend, GL on llvmpipe: uploaded (interop needs the NVIDIA driver's GL)");
}

TEST_CASE("a backend the interop cannot register with uploads and names why") {
  HostBackendNamedCuda backend;
  const CellSourceChoice choice = choose_cell_source(backend, "NVIDIA H200/PCIe/SSE2", 1, 2);
  CHECK(choice.kind == CellSourceKind::upload);
  CHECK(choice.writer == nullptr);
  CHECK(choice.reason.rfind("CUDA backend: uploaded (", 0) == 0);
  CHECK(choice.reason.back() == ')');
}

TEST_CASE("a session model keeps the bins off the host while the cells are written on the device") {
  SessionModel model;
  const Config config = ConfigBuilder().ranks(4).count(64);
  std::string error;
  REQUIRE(model.rebuild(config, BackendChoice::cpu, error));
  CHECK_FALSE(model.state_at(1).cells.bins.empty());
  model.set_cell_data_on_device(true);
  const ShownState& device_state = model.state_at(1);
  CHECK(device_state.cells.bins.empty());
  CHECK(device_state.cells.ranks == 4);
  CHECK(device_state.cells.cells.size() == 16u * kCellWords);
  CHECK(device_state.labels.size() == 16u);
  model.set_cell_data_on_device(false);
  CHECK_FALSE(model.state_at(1).cells.bins.empty());
}
