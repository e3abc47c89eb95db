#include "app/gui/hosts/draw_fingerprint.h"

#include <cstddef>

#include <imgui.h>

#include "app/gui/runtime/gui_app.h"

namespace ringviz::gui {

namespace {

// FNV-1a over raw bytes: enough to tell whether two frames' draw data are the same.
std::uint64_t hash_bytes(std::uint64_t hash, const void* data, std::size_t size) {
  const auto* bytes = static_cast<const std::uint8_t*>(data);
  for (std::size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 0x100000001b3ull;
  return hash;
}

}  // namespace

std::uint64_t draw_fingerprint(GuiApp& app, const ImDrawData& draw) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  const double position = app.playback().position();
  const int generation = app.model().generation();
  hash = hash_bytes(hash, &position, sizeof position);
  hash = hash_bytes(hash, &generation, sizeof generation);
  for (int i = 0; i < draw.CmdListsCount; ++i) {
    const ImDrawList& list = *draw.CmdLists[i];
    hash = hash_bytes(hash, list.VtxBuffer.Data, static_cast<std::size_t>(list.VtxBuffer.size_in_bytes()));
    hash = hash_bytes(hash, list.IdxBuffer.Data, static_cast<std::size_t>(list.IdxBuffer.size_in_bytes()));
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      hash = hash_bytes(hash, &cmd.ClipRect, sizeof cmd.ClipRect);
      hash = hash_bytes(hash, &cmd.TextureId, sizeof cmd.TextureId);
      hash = hash_bytes(hash, &cmd.VtxOffset, sizeof cmd.VtxOffset);
      hash = hash_bytes(hash, &cmd.IdxOffset, sizeof cmd.IdxOffset);
      hash = hash_bytes(hash, &cmd.ElemCount, sizeof cmd.ElemCount);
      hash = hash_bytes(hash, &cmd.UserCallback, sizeof cmd.UserCallback);
      hash = hash_bytes(hash, &cmd.UserCallbackData, sizeof cmd.UserCallbackData);
    }
  }
  return hash;
}

}  // namespace ringviz::gui
