#pragma once
// The bridge from the GUI to CUDA-OpenGL interop: something that writes the ring view's cell
// records and heat bins straight from the ranks' device buffers into the renderer's two GL
// buffers. Nothing here names a CUDA type, so app/ compiles as plain C++; the CUDA side is in
// cell_writer.cpp behind RINGVIZ_WITH_CUDA (docs/architecture.md, "The GUI: frame host,
// panels and views").
#include <memory>
#include <string>

#include "core/engine/backend.h"
#include "core/engine/session.h"
#include "core/teaching/visual_cells.h"

namespace ringviz {

class CellWriter {
 public:
  virtual ~CellWriter() = default;
  // The CUDA device the GL context runs on, where the writing kernel runs.
  virtual int device() const = 0;
  // Writes the state `session` holds now (after session.round() rounds) into the GL buffers
  // in the layout of core/teaching/visual_cells.h. Throws std::exception on a CUDA failure.
  virtual void fill(Session& session, ValueRange range) = 0;
};

// A writer for the GL buffers `cells_buffer` and `bins_buffer` (sized for the session), with
// the GL context that owns them current. nullptr with `why` set (one sentence) when `backend`
// is not the CUDA backend, this build has none, or registration fails. The writer must be
// destroyed before either buffer is deleted or re-sized.
std::unique_ptr<CellWriter> make_interop_cell_writer(Backend& backend, unsigned cells_buffer,
                                                     unsigned bins_buffer, std::string& why);

}  // namespace ringviz
