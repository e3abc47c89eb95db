#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/render/colour.h"
#include "app/gui/layout/geometry.h"
#include "app/gui/render/damage_rect.h"
#include "core/teaching/visual_cells.h"

struct ImDrawList;
struct ImDrawCmd;

namespace ringviz::gui {

// How the bottom band of each cell is used.
enum class ValueBand { none = 0, text = 1, heatmap = 2 };

// What one frame's cell pass draws: one quad per GPU over its cell grid.
struct CellPass {
  struct Box {
    Rect cells;  // the cell grid of this GPU, in framebuffer pixels
    int rank = 0;
  };
  std::vector<Box> boxes;
  Rect clip;  // the ring view; nothing is drawn outside it
  int ranks = 0;
  int slots = 0;  // cells per GPU: ranks, or ranks x ranks for an uneven AllToAll
  // Every box holds the same grid: columns x rows cells of cell_size pixels, `gap` apart.
  int columns = 1;
  int rows = 1;
  Vec2 cell_size;
  float gap = 0;
  float band = 0;  // fraction of the cell height
  ValueBand band_mode = ValueBand::none;
  Rgb hatch_a, hatch_b, stale_target, nan_colour;
  float stale_amount = 0.6f;
};

// Draws the slot cells of every GPU with shaders/cells.*.glsl, reading the visual cell data
// (core/teaching/visual_cells.h) from two GL buffers, copied on the GPU into 2D textures when
// they change (WebGL2 has no buffer textures). It runs inside ImGui's
// render pass as a draw callback and leaves every piece of GL state it touches as it found it.
// The result is cached in a framebuffer-sized texture and only redrawn when the data, the
// palette, the geometry or the colours change; other frames copy it back (cheap on llvmpipe).
//
// CUDA-GL interop: cells_buffer() and bins_buffer() are plain GL buffer objects in exactly the
// visual_cells.h layout. reserve() sizes them for a config; after that a CUDA kernel may write
// them (register once with cudaGraphicsGLRegisterBuffer, map, write, unmap) instead of
// upload() being called. Unregister them before the renderer is destroyed or reserve() grows.
class CellRenderer {
 public:
  CellRenderer() = default;
  ~CellRenderer();
  CellRenderer(const CellRenderer&) = delete;
  CellRenderer& operator=(const CellRenderer&) = delete;

  // Compiles the shaders and creates the GL objects; false with `error` saying what to do.
  bool init(std::string& error);
  // Sizes the buffers for N ranks of `slots` cells and `bins_per_slot` (keeps their contents if
  // unchanged).
  void reserve(int ranks, int slots, int bins_per_slot);
  void upload(const VisualCells& cells);
  // Call after writing cells_buffer()/bins_buffer() directly (CUDA interop): redraws the cache.
  void mark_changed() { ++version_; }
  void upload_palette(const std::vector<Rgb>& palette);
  unsigned cells_buffer() const { return cells_buffer_; }
  unsigned bins_buffer() const { return bins_buffer_; }
  int bins_per_slot() const { return bins_per_slot_; }

  // Queues the pass on `draw_list` at this point of ImGui's draw order.
  void queue(ImDrawList* draw_list, CellPass pass);
  // For FrameDamage: true when `command` is a queued cell pass, with the pixels it may draw
  // (its clip) and a hash of everything its pixels come from (the cache key).
  static bool describe(const ImDrawCmd& command, int framebuffer_height, CallbackFootprint& out);

 private:
  static void draw_callback(const ImDrawList* list, const ImDrawCmd* command);
  void draw();
  void draw_cells(const float* projection, float framebuffer_scale_x, float framebuffer_scale_y);
  std::uint64_t pass_key(int framebuffer_width, int framebuffer_height) const;

  unsigned program_ = 0;
  unsigned composite_program_ = 0;
  int composite_projection_ = -1;
  unsigned cache_framebuffer_ = 0, cache_texture_ = 0;
  int cache_width_ = 0, cache_height_ = 0;
  std::uint64_t cache_key_ = 0;
  std::uint64_t version_ = 1;  // bumped by every upload
  unsigned vertex_array_ = 0;
  unsigned vertex_buffer_ = 0;
  unsigned cells_buffer_ = 0, cells_texture_ = 0;
  unsigned bins_buffer_ = 0, bins_texture_ = 0;
  unsigned palette_buffer_ = 0, palette_texture_ = 0;
  std::size_t palette_texels_ = 0;
  std::uint64_t textures_version_ = 0;  // the version_ the textures hold
  int ranks_ = 0;
  int slots_ = 0;
  int bins_per_slot_ = 0;
  CellPass pass_;
  struct Uniforms {
    int projection, cells, bins, palette, row, ranks, slots, columns, bins_per_slot, cell_size, gap, band,
        band_mode, hatch_a, hatch_b, stale_target, stale_amount, nan_colour;
  } uniforms_{};
};

}  // namespace ringviz::gui
