#include "app/gui/render/frame_damage.h"

#include <algorithm>
#include <cstring>

#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>

#include "app/gui/render/background_fill.h"
#include "app/gui/render/cell_renderer.h"
#include "app/gui/render/draw_batch.h"
#include "app/platform/gl.h"

namespace ringviz::gui {

namespace {

// A quick 64-bit hash of bytes, eight at a time: a frame hashes about 300 KB of vertices.
struct Hash {
  std::uint64_t value = 0x9E3779B97F4A7C15ull;
  void word(std::uint64_t w) {
    value ^= w + 0x9E3779B97F4A7C15ull + (value << 6) + (value >> 2);
    value *= 0xFF51AFD7ED558CCDull;
  }
  void bytes(const void* data, std::size_t size) {
    // An empty buffer may have no storage at all (data == nullptr): nothing to read.
    if (size == 0) {
      word(0);
      return;
    }
    const auto* p = static_cast<const unsigned char*>(data);
    std::size_t i = 0;
    for (; i + 8 <= size; i += 8) {
      std::uint64_t w;
      std::memcpy(&w, p + i, 8);
      word(w);
    }
    std::uint64_t tail = 0;
    std::memcpy(&tail, p + i, size - i);
    word(tail ^ size);
  }
  template <class T>
  void add(const T& item) { bytes(&item, sizeof item); }
};

bool describe_callback(const ImDrawCmd& command, int framebuffer_height, CallbackFootprint& out) {
  return BackgroundFills::describe(command, framebuffer_height, out) ||
         CellRenderer::describe(command, framebuffer_height, out);
}

}  // namespace

std::vector<PixelRect> merge_rects(std::vector<PixelRect> rects, std::size_t limit) {
  rects.erase(std::remove_if(rects.begin(), rects.end(), [](const PixelRect& r) { return r.empty(); }), rects.end());
  for (bool merged = true; merged;) {
    merged = false;
    for (std::size_t i = 0; i < rects.size() && !merged; ++i)
      for (std::size_t j = i + 1; j < rects.size(); ++j)
        if (rects[i].overlaps(rects[j])) {
          rects[i] = rects[i].united(rects[j]);
          rects.erase(rects.begin() + static_cast<std::ptrdiff_t>(j));
          merged = true;
          break;
        }
  }
  if (rects.size() > limit) {
    PixelRect all;
    for (const PixelRect& r : rects) all = all.united(r);
    rects = {all};
  }
  return rects;
}

std::vector<PixelRect> changed_rects(const std::vector<ListFootprint>& before, const std::vector<ListFootprint>& now) {
  std::vector<PixelRect> rects;
  std::vector<char> matched(before.size(), 0);
  // The latest place (in last frame's order) of a list matched so far. A list matched to an
  // earlier place now comes after one that came after it: the two swapped z-order, and where
  // they overlap the other one is now on top. Redrawing the later one's bounds covers that
  // overlap for every swapped pair, even when neither list's own pixels changed.
  std::size_t latest_place = 0;
  bool any_matched = false;
  for (const ListFootprint& list : now) {
    const auto same_owner = std::find_if(before.begin(), before.end(), [&](const ListFootprint& old) {
      return !matched[static_cast<std::size_t>(&old - before.data())] && old.owner == list.owner;
    });
    if (same_owner == before.end()) {
      rects.push_back(list.bounds);
      continue;
    }
    const auto place = static_cast<std::size_t>(same_owner - before.begin());
    matched[place] = 1;
    const bool reordered = any_matched && place < latest_place;
    if (!reordered) latest_place = place;
    any_matched = true;
    if (reordered) {
      rects.push_back(list.bounds);
      if (same_owner->bounds != list.bounds) rects.push_back(same_owner->bounds);
      continue;
    }
    if (*same_owner == list) continue;
    rects.push_back(same_owner->bounds);
    rects.push_back(list.bounds);
  }
  for (std::size_t i = 0; i < before.size(); ++i)
    if (!matched[i]) rects.push_back(before[i].bounds);
  // A few rectangles at most: each one re-submits every list that overlaps it.
  return merge_rects(std::move(rects), 4);
}

std::vector<ListFootprint> FrameDamage::footprints(const ImDrawData& data, int height, bool& describable) const {
  std::vector<ListFootprint> lists;
  describable = true;
  for (int i = 0; i < data.CmdListsCount; ++i) {
    const ImDrawList& list = *data.CmdLists[i];
    ListFootprint footprint;
    footprint.owner = list._OwnerName ? list._OwnerName : "";
    Hash hash;
    hash.bytes(list.VtxBuffer.Data, static_cast<std::size_t>(list.VtxBuffer.Size) * sizeof(ImDrawVert));
    hash.bytes(list.IdxBuffer.Data, static_cast<std::size_t>(list.IdxBuffer.Size) * sizeof(ImDrawIdx));
    for (const ImDrawCmd& command : list.CmdBuffer) {
      if (command.UserCallback != nullptr) {
        CallbackFootprint callback;
        if (command.UserCallback == ImDrawCallback_ResetRenderState) continue;
        if (!describe_callback(command, height, callback)) describable = false;
        footprint.bounds = footprint.bounds.united(callback.bounds);
        hash.add(callback.content);
        continue;
      }
      if (command.ElemCount == 0) continue;
      hash.add(command.ClipRect), hash.add(command.TextureId), hash.add(command.VtxOffset);
      hash.add(command.IdxOffset), hash.add(command.ElemCount);
      footprint.bounds = footprint.bounds.united(
          scissor_pixels(command.ClipRect.x, command.ClipRect.y, command.ClipRect.z, command.ClipRect.w, height));
    }
    footprint.content = hash.value;
    lists.push_back(std::move(footprint));
  }
  return lists;
}

FrameDamage::FrameDamage() : batch_(std::make_unique<DrawBatch>()) {}
FrameDamage::~FrameDamage() = default;

std::int64_t FrameDamage::draw(ImDrawData& data, int width, int height, const float clear[4]) {
  const PixelRect whole{0, 0, width, height};
  bool describable = true;
  std::vector<ListFootprint> now = footprints(data, height, describable);
  // Only a display at (0, 0) and scale 1 (the headless hosts): clip rectangles are pixels.
  const bool plain = data.DisplayPos.x == 0 && data.DisplayPos.y == 0 && data.FramebufferScale.x == 1 &&
                     data.FramebufferScale.y == 1;
  // The font atlas: rebuilt (a language, a scale), the same vertices may show other glyphs.
  const ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
  Hash atlas_hash;
  atlas_hash.add(atlas.TexID), atlas_hash.add(atlas.TexWidth), atlas_hash.add(atlas.TexHeight);
  atlas_hash.add(atlas.Fonts.Size), atlas_hash.add(atlas.TexUvWhitePixel);
  const bool same_target = valid_ && width == width_ && height == height_ &&
                           std::equal(clear, clear + 4, clear_) && atlas_hash.value == atlas_;
  std::vector<PixelRect> rects = plain && describable && same_target ? changed_rects(last_, now)
                                                                       : std::vector<PixelRect>{whole};
  for (PixelRect& r : rects) r = r.intersected(whole);
  rects.erase(std::remove_if(rects.begin(), rects.end(), [](const PixelRect& r) { return r.empty(); }), rects.end());

  glClearColor(clear[0], clear[1], clear[2], clear[3]);
  std::int64_t pixels = 0;
  if (rects.size() == 1 && rects[0] == whole) {
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(&batch_->whole(data));
    pixels = static_cast<std::int64_t>(width) * height;
  } else if (!rects.empty()) {
    // Each rectangle cleared, then one call of the backend for all of them: every list that
    // reaches into a rectangle, uploaded once, its commands clipped to each (DrawBatch).
    glEnable(GL_SCISSOR_TEST);
    for (const PixelRect& rect : rects) {
      glScissor(rect.x0, height - rect.y1, rect.x1 - rect.x0, rect.y1 - rect.y0);
      glClear(GL_COLOR_BUFFER_BIT);
      pixels += static_cast<std::int64_t>(rect.x1 - rect.x0) * (rect.y1 - rect.y0);
    }
    glDisable(GL_SCISSOR_TEST);
    list_bounds_.clear();
    for (const ListFootprint& list : now) list_bounds_.push_back(list.bounds);
    ImGui_ImplOpenGL3_RenderDrawData(&batch_->rectangles(data, list_bounds_, rects, height));
  }
  redrawn_ = std::move(rects);
  last_ = std::move(now);
  width_ = width;
  height_ = height;
  std::copy(clear, clear + 4, clear_);
  atlas_ = atlas_hash.value;
  valid_ = plain && describable;
  return pixels;
}

}  // namespace ringviz::gui
