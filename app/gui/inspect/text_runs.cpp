#include "app/gui/inspect/text_runs.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <imgui.h>

#include "core/model/text.h"

namespace ringviz::gui {

namespace {

// How far apart two pen positions may be and still be one: recovering the pen from a quad
// costs a few float roundings, far below a pixel.
constexpr float kPenTolerance = 0.05f;
// How far a glyph may reach past its clip rectangle before it counts as cut off: the scissor
// works on whole pixels.
constexpr float kClipTolerance = 0.5f;

struct AtlasGlyph {
  const ImFont* font;
  const ImFontGlyph* glyph;
};

// The visible glyphs of every font in the atlas, found by a point in UV space: a grid of
// buckets, each listing the glyphs whose UV rectangle touches it. Glyphs never share atlas
// pixels, so at most one glyph contains a quad's UV rectangle.
class GlyphIndex {
 public:
  explicit GlyphIndex(const ImFontAtlas& atlas) {
    for (const ImFont* font : atlas.Fonts) {
      for (const ImFontGlyph& glyph : font->Glyphs) {
        if (!glyph.Visible || glyph.U1 <= glyph.U0 || glyph.V1 <= glyph.V0) continue;
        for (int row = bucket(glyph.V0); row <= bucket(glyph.V1); ++row)
          for (int column = bucket(glyph.U0); column <= bucket(glyph.U1); ++column)
            buckets_[static_cast<std::size_t>(row * kGrid + column)].push_back({font, &glyph});
      }
    }
  }

  // The glyph whose UV rectangle holds [u0, u1] x [v0, v1]: the whole glyph, or the part of it
  // that the CPU left after clipping.
  std::optional<AtlasGlyph> find(float u0, float v0, float u1, float v1) const {
    const std::vector<AtlasGlyph>& candidates =
        buckets_[static_cast<std::size_t>(bucket((v0 + v1) * 0.5f) * kGrid + bucket((u0 + u1) * 0.5f))];
    for (const AtlasGlyph& candidate : candidates) {
      const ImFontGlyph& g = *candidate.glyph;
      if (u0 >= g.U0 && u1 <= g.U1 && v0 >= g.V0 && v1 <= g.V1) return candidate;
    }
    return std::nullopt;
  }

 private:
  static constexpr int kGrid = 64;
  static int bucket(float uv) { return std::clamp(static_cast<int>(uv * kGrid), 0, kGrid - 1); }
  std::vector<std::vector<AtlasGlyph>> buckets_ = std::vector<std::vector<AtlasGlyph>>(kGrid * kGrid);
};

// One glyph as drawn, with what it tells of the text around it.
struct DrawnGlyph {
  const ImFont* font;
  char32_t code_point;
  float scale;    // drawn size / the font's size
  float pen_x;    // where the pen stood when the glyph was drawn
  float line_y;   // the top of its line
  float advance;  // how far the pen moves after it
  Rect quad;      // as drawn
  bool clipped;
};

// The vertices of a glyph quad: a top-left, b top-right, c bottom-right, d bottom-left, with
// the UVs of the same corners (ImDrawList::PrimRectUV and ImFont::RenderText's inlined copy).
bool is_axis_aligned_quad(const ImDrawVert& a, const ImDrawVert& b, const ImDrawVert& c, const ImDrawVert& d) {
  return a.pos.y == b.pos.y && c.pos.y == d.pos.y && a.pos.x == d.pos.x && b.pos.x == c.pos.x &&
         a.uv.y == b.uv.y && c.uv.y == d.uv.y && a.uv.x == d.uv.x && b.uv.x == c.uv.x && a.uv.x < c.uv.x &&
         a.uv.y < c.uv.y && a.pos.x <= c.pos.x && a.pos.y < c.pos.y;
}

std::optional<DrawnGlyph> recognise(const GlyphIndex& index, const ImDrawVert& a, const ImDrawVert& c,
                                    const ImVec4& clip) {
  const std::optional<AtlasGlyph> found = index.find(a.uv.x, a.uv.y, c.uv.x, c.uv.y);
  if (!found) return std::nullopt;
  const ImFontGlyph& g = *found->glyph;
  // The share of the glyph's texels the quad shows along each axis: 1 unless the CPU clipped it.
  const float shown_u = (c.uv.x - a.uv.x) / (g.U1 - g.U0);
  const float shown_v = (c.uv.y - a.uv.y) / (g.V1 - g.V0);
  // The scale from the axis showing more of the glyph (the other may be clipped to nothing).
  const float scale = shown_v >= shown_u ? (c.pos.y - a.pos.y) / (shown_v * (g.Y1 - g.Y0))
                                         : (c.pos.x - a.pos.x) / (shown_u * (g.X1 - g.X0));
  if (!(scale > 0) || !std::isfinite(scale)) return std::nullopt;
  // Where the whole glyph's top-left corner is, and from it the pen.
  const float glyph_x = a.pos.x - (a.uv.x - g.U0) / (g.U1 - g.U0) * (g.X1 - g.X0) * scale;
  const float glyph_y = a.pos.y - (a.uv.y - g.V0) / (g.V1 - g.V0) * (g.Y1 - g.Y0) * scale;
  const bool whole = a.uv.x == g.U0 && a.uv.y == g.V0 && c.uv.x == g.U1 && c.uv.y == g.V1;
  const bool past_clip = a.pos.x < clip.x - kClipTolerance || a.pos.y < clip.y - kClipTolerance ||
                         c.pos.x > clip.z + kClipTolerance || c.pos.y > clip.w + kClipTolerance;
  // ImGui's default font has its ellipsis at U+0085 (a control character in Unicode), which
  // ImGui draws where it shortens a tab or a table header: it reads as "…".
  const char32_t code_point = g.Codepoint == 0x85 ? U'\u2026' : static_cast<char32_t>(g.Codepoint);
  return DrawnGlyph{found->font,
                    code_point,
                    scale,
                    glyph_x - g.X0 * scale,
                    glyph_y - g.Y0 * scale,
                    g.AdvanceX * scale,
                    Rect{a.pos.x, a.pos.y, c.pos.x - a.pos.x, c.pos.y - a.pos.y},
                    !whole || past_clip};
}

// A solid rectangle of one opaque colour (ImDrawList::PrimRect: AddRectFilled without
// rounding), as far as its clip rectangle lets it show.
std::optional<Rect> opaque_rect(const ImDrawVert* q, const ImVec4& clip) {
  const ImDrawVert &a = q[0], &b = q[1], &c = q[2], &d = q[3];
  const bool one_colour = a.col == b.col && a.col == c.col && a.col == d.col &&
                          (a.col & IM_COL32_A_MASK) == IM_COL32_A_MASK;
  const bool untextured = a.uv.x == b.uv.x && a.uv.x == c.uv.x && a.uv.x == d.uv.x && a.uv.y == b.uv.y &&
                          a.uv.y == c.uv.y && a.uv.y == d.uv.y;
  const bool aligned = a.pos.y == b.pos.y && c.pos.y == d.pos.y && a.pos.x == d.pos.x && b.pos.x == c.pos.x;
  if (!one_colour || !untextured || !aligned) return std::nullopt;
  const float x0 = std::max(std::min(a.pos.x, c.pos.x), clip.x), y0 = std::max(std::min(a.pos.y, c.pos.y), clip.y);
  const float x1 = std::min(std::max(a.pos.x, c.pos.x), clip.z), y1 = std::min(std::max(a.pos.y, c.pos.y), clip.w);
  if (x1 <= x0 || y1 <= y0) return std::nullopt;
  return Rect{x0, y0, x1 - x0, y1 - y0};
}

bool covers(const Rect& cover, const Rect& r) {
  constexpr float slack = 0.5f;
  return r.x >= cover.x - slack && r.y >= cover.y - slack && r.right() <= cover.right() + slack &&
         r.bottom() <= cover.bottom() + slack;
}

Rect united(const Rect& r, const Rect& s) {
  const float x0 = std::min(r.x, s.x), y0 = std::min(r.y, s.y);
  return {x0, y0, std::max(r.right(), s.right()) - x0, std::max(r.bottom(), s.bottom()) - y0};
}

// Gathers the glyphs of one draw list into runs.
class RunBuilder {
 public:
  explicit RunBuilder(std::vector<TextRun>& runs) : runs_(runs) {}

  void add(const DrawnGlyph& glyph) {
    const int spaces = open_ ? spaces_before(glyph) : -1;
    if (spaces < 0) {
      runs_.push_back({glyph.quad, "", false, false, glyph.font, glyph.font->FontSize * glyph.scale});
      open_ = true;
      font_ = glyph.font;
      scale_ = glyph.scale;
      line_y_ = glyph.line_y;
    } else {
      runs_.back().text.append(static_cast<std::size_t>(spaces), ' ');
      runs_.back().rect = united(runs_.back().rect, glyph.quad);
    }
    append_utf8(runs_.back().text, glyph.code_point);
    runs_.back().clipped = runs_.back().clipped || glyph.clipped;
    next_x_ = glyph.pen_x + glyph.advance;
  }

  // Something other than a glyph was drawn: the text before it has ended.
  void close() { open_ = false; }

 private:
  // 0 when `glyph` continues the run, 1 when one space's advance lies between, -1 when it
  // starts a new run (another font or size, another line, a larger gap, a step back).
  int spaces_before(const DrawnGlyph& glyph) const {
    if (glyph.font != font_ || std::fabs(glyph.scale - scale_) > scale_ * 1e-3f ||
        std::fabs(glyph.line_y - line_y_) > kPenTolerance)
      return -1;
    const float gap = glyph.pen_x - next_x_;
    if (std::fabs(gap) <= kPenTolerance) return 0;
    const ImFontGlyph* space = font_->FindGlyphNoFallback(static_cast<ImWchar>(' '));
    if (space != nullptr && std::fabs(gap - space->AdvanceX * scale_) <= kPenTolerance) return 1;
    return -1;
  }

  std::vector<TextRun>& runs_;
  bool open_ = false;
  const ImFont* font_ = nullptr;
  float scale_ = 1;
  float line_y_ = 0;
  float next_x_ = 0;
};

}  // namespace

std::vector<TextRun> find_text_runs(const ImDrawData& frame, const ImFontAtlas& atlas) {
  std::vector<TextRun> runs;
  if (!frame.Valid || atlas.Fonts.Size == 0) return runs;
  const GlyphIndex index(atlas);
  // Drawing order: when each run was last added to, and where each opaque rectangle was drawn.
  long long order = 0;
  std::vector<long long> run_drawn;
  std::vector<std::pair<long long, Rect>> covers_drawn;
  for (int l = 0; l < frame.CmdListsCount; ++l) {
    const ImDrawList& list = *frame.CmdLists[l];
    RunBuilder builder(runs);
    for (const ImDrawCmd& command : list.CmdBuffer) {
      if (command.UserCallback != nullptr || command.TextureId != atlas.TexID) {
        builder.close();
        continue;
      }
      const unsigned end = command.IdxOffset + command.ElemCount;
      // Other shapes (polygons) come in any number of triangles, so the walk moves a triangle
      // at a time until a glyph's two triangles line up.
      for (unsigned i = command.IdxOffset; i + 3 <= end;) {
        const ImDrawIdx* idx = &list.IdxBuffer[static_cast<int>(i)];
        const unsigned v = command.VtxOffset + idx[0];
        const bool quad_pattern = i + 6 <= end && idx[1] == idx[0] + 1 && idx[2] == idx[0] + 2 &&
                                  idx[3] == idx[0] && idx[4] == idx[0] + 2 && idx[5] == idx[0] + 3 &&
                                  v + 3 < static_cast<unsigned>(list.VtxBuffer.Size);
        std::optional<DrawnGlyph> glyph;
        std::optional<Rect> cover;
        if (quad_pattern) {
          const ImDrawVert* q = &list.VtxBuffer[static_cast<int>(v)];
          if (is_axis_aligned_quad(q[0], q[1], q[2], q[3])) glyph = recognise(index, q[0], q[2], command.ClipRect);
          else cover = opaque_rect(q, command.ClipRect);
        }
        ++order;
        if (glyph) {
          builder.add(*glyph);
          run_drawn.resize(runs.size());
          run_drawn.back() = order;
          i += 6;
        } else {
          builder.close();
          if (cover) covers_drawn.emplace_back(order, *cover);
          i += cover ? 6 : 3;
        }
      }
    }
  }
  for (std::size_t r = 0; r < runs.size(); ++r)
    for (const auto& [drawn, rect] : covers_drawn)
      if (drawn > run_drawn[r] && covers(rect, runs[r].rect)) {
        runs[r].hidden = true;
        break;
      }
  return runs;
}

}  // namespace ringviz::gui
