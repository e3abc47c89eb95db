#pragma once
// Where the ring view's cell data comes from: the one place that decides between CUDA-OpenGL
// interop (a kernel reads the ranks' device buffers and writes the renderer's GL buffers, no
// copy through the host) and the upload of host-built cells. Both write the same bytes, so
// the pixels do not depend on the choice (docs/architecture.md, "The GUI: frame host, panels
// and views").
#include <memory>
#include <string>
#include <utility>

#include "app/backend/cell_writer.h"
#include "app/gui/render/cell_renderer.h"
#include "app/gui/state/session_model.h"
#include "core/engine/backend.h"

namespace ringviz::gui {

enum class CellSourceKind { upload, interop };
const char* cell_source_name(CellSourceKind kind);  // "upload" | "interop"

struct CellSourceChoice {
  CellSourceKind kind = CellSourceKind::upload;
  std::string reason;  // one sentence, e.g. "CUDA-OpenGL interop on GPU 0"
  std::unique_ptr<CellWriter> writer;  // set for interop
};

// The decision itself: interop needs the CUDA backend, a GL context on a CUDA device (not a
// software renderer such as llvmpipe; `gl_renderer` is GL_RENDERER) and a registration of both
// buffers that succeeds. Anything else uploads, and the reason says why.
CellSourceChoice choose_cell_source(Backend& backend, const std::string& gl_renderer,
                                    unsigned cells_buffer, unsigned bins_buffer);

// Keeps a renderer's buffers in step with the session. Destroy it (or release()) before the
// renderer: the interop writer holds registrations of the renderer's buffers.
class CellSource {
 public:
  // Writes the cells after `round` rounds of `model`'s session into `renderer` when the round
  // or the session changed since the last call; decides again after a rebuild. Needs the
  // renderer's GL context current.
  void bring_to(CellRenderer& renderer, SessionModel& model, int round);
  void release();

  // False until the ring view has drawn a frame of the current session.
  bool decided() const { return decided_generation_ >= 0; }
  CellSourceKind kind() const { return kind_; }
  const std::string& reason() const { return reason_; }
  // Set once when interop failed and the source fell back to upload; empty afterwards.
  std::string take_notice() { return std::exchange(notice_, {}); }

 private:
  void decide(CellRenderer& renderer, SessionModel& model);
  void write(CellRenderer& renderer, SessionModel& model, int round);

  std::unique_ptr<CellWriter> writer_;
  CellSourceKind kind_ = CellSourceKind::upload;
  std::string reason_ = "not decided yet: the ring view has not drawn a frame";
  std::string notice_;
  int decided_generation_ = -1;
  int written_round_ = -1;
  int written_generation_ = -1;
};

}  // namespace ringviz::gui
