#include "app/backend/cell_writer.h"

#include <stdexcept>

#if RINGVIZ_WITH_CUDA
#include "gpu/backend/cuda_backend.h"
#include "gpu/interop/gl_interop.h"
#endif

namespace ringviz {

namespace {

#if RINGVIZ_WITH_CUDA
class InteropCellWriter final : public CellWriter {
 public:
  InteropCellWriter(unsigned cells_buffer, unsigned bins_buffer) : interop_(cells_buffer, bins_buffer) {}
  int device() const override { return interop_.device(); }
  void fill(Session& session, ValueRange range) override {
    auto* backend = dynamic_cast<gpu::CudaBackend*>(&session.backend());
    if (backend == nullptr)
      throw std::logic_error("CUDA-OpenGL interop was asked to draw a session that does not run on CUDA");
    interop_.fill(*backend, session.config(), session.layout(), session.schedule(), session.round(),
                  session.provenance(), range);
  }

 private:
  gpu::VisualCellsInterop interop_;
};
#endif

}  // namespace

std::unique_ptr<CellWriter> make_interop_cell_writer(Backend& backend, unsigned cells_buffer,
                                                     unsigned bins_buffer, std::string& why) {
#if RINGVIZ_WITH_CUDA
  if (dynamic_cast<gpu::CudaBackend*>(&backend) == nullptr) {
    why = "the " + backend.name() + " backend keeps its buffers in host memory";
    return nullptr;
  }
  try {
    return std::make_unique<InteropCellWriter>(cells_buffer, bins_buffer);
  } catch (const gpu::CudaError& error) {
    why = error.what();
    return nullptr;
  }
#else
  (void)cells_buffer;
  (void)bins_buffer;
  why = "this build has no CUDA backend, so the " + backend.name() + " backend keeps its buffers in host memory";
  return nullptr;
#endif
}

}  // namespace ringviz
