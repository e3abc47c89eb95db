#include "app/gui/state/cell_source.h"

#include "app/platform/gl.h"

namespace ringviz::gui {

namespace {

// Software renderers have no CUDA device behind them; asking CUDA to register their buffers
// only fails more slowly and less clearly.
bool software_renderer(const std::string& gl_renderer) {
  for (const char* name : {"llvmpipe", "softpipe", "lavapipe", "Software"})
    if (gl_renderer.find(name) != std::string::npos) return true;
  return false;
}

std::string first_word(const std::string& text) { return text.substr(0, text.find(' ')); }

std::string current_gl_renderer() {
  const auto* text = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return text != nullptr ? text : "";
}

}  // namespace

const char* cell_source_name(CellSourceKind kind) {
  return kind == CellSourceKind::interop ? "interop" : "upload";
}

CellSourceChoice choose_cell_source(Backend& backend, const std::string& gl_renderer,
                                    unsigned cells_buffer, unsigned bins_buffer) {
  CellSourceChoice choice;
  if (backend.name() != "cuda") {
    choice.reason = "CPU backend: cells uploaded from host memory";
    return choice;
  }
  if (software_renderer(gl_renderer)) {
    choice.reason = "CUDA backend, GL on " + first_word(gl_renderer) +
                    ": uploaded (interop needs the NVIDIA driver's GL)";
    return choice;
  }
  std::string why;
  choice.writer = make_interop_cell_writer(backend, cells_buffer, bins_buffer, why);
  if (!choice.writer) {
    choice.reason = "CUDA backend: uploaded (" + why + ")";
    return choice;
  }
  choice.kind = CellSourceKind::interop;
  choice.reason = "CUDA-OpenGL interop on GPU " + std::to_string(choice.writer->device());
  return choice;
}

void CellSource::release() {
  writer_.reset();
  decided_generation_ = -1;
  written_round_ = -1;
}

void CellSource::decide(CellRenderer& renderer, SessionModel& model) {
  // Unregister before reserve() may re-specify the buffers' storage.
  writer_.reset();
  const Session& session = model.session();
  renderer.reserve(session.config().ranks, session.layout().size(),
                   bins_per_slot_for(session.layout(), session.config().ranks));
  CellSourceChoice choice =
      choose_cell_source(model.session().backend(), current_gl_renderer(), renderer.cells_buffer(), renderer.bins_buffer());
  writer_ = std::move(choice.writer);
  kind_ = choice.kind;
  reason_ = std::move(choice.reason);
  decided_generation_ = model.generation();
  model.set_cell_data_on_device(kind_ == CellSourceKind::interop);
}

void CellSource::bring_to(CellRenderer& renderer, SessionModel& model, int round) {
  if (decided_generation_ != model.generation()) decide(renderer, model);
  if (written_round_ == round && written_generation_ == model.generation()) return;
  write(renderer, model, round);
  written_round_ = round;
  written_generation_ = model.generation();
}

void CellSource::write(CellRenderer& renderer, SessionModel& model, int round) {
  if (writer_) {
    try {
      Session& session = model.session();
      session.seek(round);
      writer_->fill(session, model.range());
      renderer.mark_changed();
      return;
    } catch (const std::exception& failure) {
      writer_.reset();
      kind_ = CellSourceKind::upload;
      reason_ = std::string("uploaded from host memory after CUDA-OpenGL interop failed: ") + failure.what();
      notice_ = "CUDA-OpenGL interop failed (" + std::string(failure.what()) + "); cells are uploaded from host memory";
      model.set_cell_data_on_device(false);
    }
  }
  renderer.upload(model.state_at(round).cells);
}

}  // namespace ringviz::gui
