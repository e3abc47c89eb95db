#include "app/gui/render/draw_batch.h"

#include <algorithm>
#include <cstring>

namespace ringviz::gui {

namespace {

// A command in front of a rectangle's commands: the callbacks that draw by themselves keep
// their scissor inside the rectangle it names (none: a whole frame).
void set_limit(const ImDrawList*, const ImDrawCmd* command) {
  set_damage_limit(static_cast<const PixelRect*>(command->UserCallbackData));
}

ImDrawCmd limit_command(const PixelRect* limit) {
  ImDrawCmd command;
  command.UserCallback = &set_limit;
  command.UserCallbackData = const_cast<PixelRect*>(limit);
  return command;
}

bool uses_vertex_offsets(const ImDrawList& list) {
  return std::any_of(list.CmdBuffer.begin(), list.CmdBuffer.end(), [](const ImDrawCmd& c) { return c.VtxOffset != 0; });
}

}  // namespace

DrawBatch::DrawBatch() = default;
DrawBatch::~DrawBatch() = default;

void DrawBatch::start(const ImDrawData& frame) {
  data_ = frame;
  used_ = 0;
  last_alone_ = false;
  placed_.assign(static_cast<std::size_t>(frame.CmdListsCount), Placed{});
}

DrawBatch::Placed DrawBatch::place(const ImDrawList& source) {
  const int vertices = source.VtxBuffer.Size;
  // A list long enough to need vertex offsets (the desktop backend draws those) keeps its
  // indices as they are, in a list of its own.
  const bool alone = uses_vertex_offsets(source);
  if (used_ == 0 || alone || last_alone_ || list(used_ - 1).VtxBuffer.Size + vertices > kMaxVertices) {
    if (used_ == static_cast<int>(lists_.size())) {
      lists_.push_back(std::make_unique<ImDrawList>(nullptr));
      limit_of_list_.push_back(nullptr);
    }
    ImDrawList& fresh = list(used_);
    // resize(0), not clear(): the storage stays for the next frame.
    fresh.VtxBuffer.resize(0);
    fresh.IdxBuffer.resize(0);
    fresh.CmdBuffer.resize(0);
    limit_of_list_[static_cast<std::size_t>(used_)] = nullptr;
    ++used_;
  }
  last_alone_ = alone;
  ImDrawList& out = list(used_ - 1);
  const int vertex_base = out.VtxBuffer.Size, index_base = out.IdxBuffer.Size;
  out.VtxBuffer.resize(vertex_base + vertices);
  if (vertices > 0)
    std::memcpy(out.VtxBuffer.Data + vertex_base, source.VtxBuffer.Data, static_cast<std::size_t>(vertices) * sizeof(ImDrawVert));
  const int indices = source.IdxBuffer.Size;
  out.IdxBuffer.resize(index_base + indices);
  ImDrawIdx* to = out.IdxBuffer.Data + index_base;
  for (int i = 0; i < indices; ++i) to[i] = static_cast<ImDrawIdx>(source.IdxBuffer.Data[i] + vertex_base);
  return Placed{used_ - 1, static_cast<unsigned>(index_base)};
}

ImDrawData& DrawBatch::rectangles(const ImDrawData& frame, const std::vector<PixelRect>& list_bounds,
                                  const std::vector<PixelRect>& rects, int framebuffer_height) {
  start(frame);
  const auto reaches = [&](int i, const PixelRect& rect) {
    return list_bounds[static_cast<std::size_t>(i)].overlaps(rect);
  };
  for (int i = 0; i < frame.CmdListsCount; ++i)
    if (std::any_of(rects.begin(), rects.end(), [&](const PixelRect& r) { return reaches(i, r); }))
      placed_[static_cast<std::size_t>(i)] = place(*frame.CmdLists[i]);
  for (const PixelRect& rect : rects) {
    for (int i = 0; i < frame.CmdListsCount; ++i) {
      const Placed& at = placed_[static_cast<std::size_t>(i)];
      if (at.list < 0 || !reaches(i, rect)) continue;
      ImDrawList& out = list(at.list);
      const PixelRect*& limit = limit_of_list_[static_cast<std::size_t>(at.list)];
      for (const ImDrawCmd& command : frame.CmdLists[i]->CmdBuffer) {
        if (command.UserCallback != nullptr) {
          if (command.UserCallback != ImDrawCallback_ResetRenderState && limit != &rect) {
            out.CmdBuffer.push_back(limit_command(&rect));
            limit = &rect;
          }
          out.CmdBuffer.push_back(command);
          continue;
        }
        if (command.ElemCount == 0) continue;
        const PixelRect inside =
            scissor_pixels(command.ClipRect.x, command.ClipRect.y, command.ClipRect.z, command.ClipRect.w,
                           framebuffer_height)
                .intersected(rect);
        if (inside.empty()) continue;
        ImDrawCmd clipped = command;
        clipped.ClipRect = ImVec4(static_cast<float>(inside.x0), static_cast<float>(inside.y0),
                                  static_cast<float>(inside.x1), static_cast<float>(inside.y1));
        clipped.IdxOffset += at.index_base;
        out.CmdBuffer.push_back(clipped);
      }
    }
  }
  for (int at = 0; at < used_; ++at)
    if (limit_of_list_[static_cast<std::size_t>(at)] != nullptr) list(at).CmdBuffer.push_back(limit_command(nullptr));
  return finish();
}

ImDrawData& DrawBatch::whole(const ImDrawData& frame) {
  start(frame);
  for (int i = 0; i < frame.CmdListsCount; ++i) {
    const ImDrawList& source = *frame.CmdLists[i];
    const Placed at = place(source);
    ImDrawList& out = list(at.list);
    for (const ImDrawCmd& command : source.CmdBuffer) {
      if (command.UserCallback == nullptr && command.ElemCount == 0) continue;
      ImDrawCmd copy = command;
      if (command.UserCallback == nullptr) copy.IdxOffset += at.index_base;
      out.CmdBuffer.push_back(copy);
    }
  }
  return finish();
}

ImDrawData& DrawBatch::finish() {
  pointers_.clear();
  data_.TotalVtxCount = data_.TotalIdxCount = 0;
  for (int at = 0; at < used_; ++at) {
    ImDrawList& l = list(at);
    if (l.CmdBuffer.Size == 0) continue;  // nothing to draw: not uploaded either
    pointers_.push_back(&l);
    data_.TotalVtxCount += l.VtxBuffer.Size;
    data_.TotalIdxCount += l.IdxBuffer.Size;
  }
  data_.CmdLists = pointers_.data();
  data_.CmdListsCount = static_cast<int>(pointers_.size());
  return data_;
}

}  // namespace ringviz::gui
