// The #version line (GL 3.3 core or GLSL ES 3.00) is put in front at load (app/platform/gl.h).
// Draws every slot of one GPU box from the visual cell data (format: core/teaching/visual_cells.h; the
// word positions of a record and of a bin: core/teaching/cell_record.h):
// provenance colour (a stripe per contributing rank), hatching for empty slots, dimming for
// stale partial sums, and a band at the bottom with either a value heatmap or a darker strip
// that ImGui writes the numbers on.
in vec2 v_cell_uv;
flat in int v_rank;
out vec4 frag_colour;

// The data as 2D textures read texel by texel, u_row texels a row: WebGL2 has no buffer
// textures, and one path for both targets keeps their pixels the same.
uniform highp usampler2D u_cells;  // 3 RGBA32UI texels per cell
uniform highp sampler2D u_bins;    // RG32F: (value, normalised value) per bin
uniform highp sampler2D u_palette; // RGBA8: one colour per rank
uniform int u_row;

uniform int u_ranks;  // GPUs in the ring
uniform int u_slots;  // cells per GPU: u_ranks, or u_ranks x u_ranks for an uneven AllToAll
uniform int u_columns;
uniform int u_bins_per_slot;
uniform vec2 u_cell_size;   // pixels
uniform float u_gap;        // pixels between neighbouring cells
uniform float u_band;       // fraction of the cell height used by the value band (0: none)
uniform int u_band_mode;    // 1: darker strip for text, 2: heatmap
uniform vec4 u_hatch_a;
uniform vec4 u_hatch_b;
uniform vec4 u_stale_target; // stale cells are pulled toward this colour ...
uniform float u_stale_amount;// ... by this much
uniform vec4 u_nan_colour;

const uint kCellEmpty = 1u;
const uint kCellStale = 2u;

// The texel at a position of the data, as the renderer lays it out (CellRenderer, to_texture).
ivec2 texel(int index) { return ivec2(index % u_row, index / u_row); }

// GLSL 330 has no bitCount(); the usual SWAR popcount.
uint popcount32(uint v) {
  v = v - ((v >> 1) & 0x55555555u);
  v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
  return (((v + (v >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
}

// The position of the n-th (0-based) set bit of a word that has more than n set bits: a
// binary search on the popcounts of its lower halves (5 steps instead of up to 32).
int nth_bit(uint word, int n) {
  int base = 0;
  for (int width = 16; width >= 1; width /= 2) {
    uint lower = word & ((1u << uint(width)) - 1u);
    int below = int(popcount32(lower));
    if (n >= below) {
      n -= below;
      word >>= uint(width);
      base += width;
    } else {
      word = lower;
    }
  }
  return base;
}

// The rank of the n-th (0-based) set bit of the 256-bit contributor mask.
int nth_contributor(uvec4 low, uvec4 high, int n) {
  for (int w = 0; w < 8; ++w) {
    uint word = w < 4 ? low[w] : high[w - 4];
    int here = int(popcount32(word));
    if (n < here) return w * 32 + nth_bit(word, n);
    n -= here;
  }
  return 0;
}

// A dark-to-bright ramp that stays readable on both themes; t in [0, 1].
vec3 heat(float t) {
  const vec3 c0 = vec3(0.06, 0.04, 0.20);
  const vec3 c1 = vec3(0.36, 0.12, 0.52);
  const vec3 c2 = vec3(0.78, 0.24, 0.38);
  const vec3 c3 = vec3(0.98, 0.56, 0.18);
  const vec3 c4 = vec3(0.99, 0.94, 0.62);
  float s = clamp(t, 0.0, 1.0) * 4.0;
  if (s < 1.0) return mix(c0, c1, s);
  if (s < 2.0) return mix(c1, c2, s - 1.0);
  if (s < 3.0) return mix(c2, c3, s - 2.0);
  return mix(c3, c4, s - 3.0);
}

void main() {
  vec2 cell = floor(v_cell_uv);
  int slot = int(cell.y) * u_columns + int(cell.x);
  if (cell.x < 0.0 || cell.y < 0.0 || int(cell.x) >= u_columns || slot >= u_slots) discard;

  // Position inside the cell in pixels, then inside the cell minus half a gap on each side.
  vec2 pixel = (v_cell_uv - cell) * u_cell_size;
  float half_gap = 0.5 * u_gap;
  if (any(lessThan(pixel, vec2(half_gap))) || any(greaterThan(pixel, u_cell_size - half_gap)))
    discard;
  vec2 inner = (pixel - half_gap) / max(u_cell_size - u_gap, vec2(1.0));

  int index = v_rank * u_slots + slot;
  uvec4 mask_low = texelFetch(u_cells, texel(index * 3), 0);
  uvec4 mask_high = texelFetch(u_cells, texel(index * 3 + 1), 0);
  uvec4 meta = texelFetch(u_cells, texel(index * 3 + 2), 0);  // count, flags, bins used, first rank
  int count = int(meta.x);
  uint flags = meta.y;

  if ((flags & kCellEmpty) != 0u || count == 0) {
    // Diagonal hatching in screen space, so that neighbouring empty cells line up.
    float d = mod(gl_FragCoord.x + gl_FragCoord.y, 9.0);
    frag_colour = d < 3.0 ? u_hatch_a : u_hatch_b;
    return;
  }

  vec4 colour;
  bool in_band = u_band > 0.0 && inner.y > 1.0 - u_band;
  int bins_used = int(meta.z);
  if (in_band && u_band_mode == 2 && bins_used > 0) {
    int bin = min(int(inner.x * float(bins_used)), bins_used - 1);
    float t = texelFetch(u_bins, texel(index * u_bins_per_slot + bin), 0).g;
    colour = t < 0.0 ? u_nan_colour : vec4(heat(t), 1.0);
  } else {
    int rank = int(meta.w);
    if (count > 1) {
      int stripe = min(int(inner.x * float(count)), count - 1);
      // Complete sums (every rank, in rank order) need no search.
      rank = count == u_ranks ? stripe : nth_contributor(mask_low, mask_high, stripe);
    }
    colour = texelFetch(u_palette, texel(rank), 0);
    if (in_band) colour.rgb *= 0.55;
  }
  if ((flags & kCellStale) != 0u) colour = mix(colour, u_stale_target, u_stale_amount);
  frag_colour = vec4(colour.rgb, 1.0);
}
