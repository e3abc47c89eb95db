#include "app/gui/render/cell_renderer.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <imgui.h>

#include "app/platform/gl.h"
#include "shader_sources.h"  // generated from shaders/*.glsl by shaders/embed_shaders.cmake

namespace ringviz::gui {

namespace {

struct Vertex {
  float x, y;  // framebuffer pixels
  float u, v;  // cell-grid coordinates
  std::int32_t rank;
};

// What the driver said about a shader or a program it refused (read with glGetShaderInfoLog or
// glGetProgramInfoLog).
std::string info_log(GLuint object, void (*read_log)(GLuint, GLsizei, GLsizei*, GLchar*)) {
  char log[2048] = {};
  read_log(object, sizeof log, nullptr, log);
  return log;
}

// One shader stage; 0 with `error` saying what to do when the driver rejects it.
GLuint compile(GLenum type, const char* source, const char* name, std::string& error) {
  const GLuint shader = glCreateShader(type);
  const char* parts[2] = {platform::kShaderPrologue, source};  // the #version line of this build's GL
  glShaderSource(shader, 2, parts, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok) return shader;
  error = std::string("the OpenGL driver rejected shaders/") + name + ": " + info_log(shader, glGetShaderInfoLog) +
          " (ringviz needs OpenGL 3.3 core, or WebGL2 in a browser; update the graphics driver, or try "
          "LIBGL_ALWAYS_SOFTWARE=1 to use Mesa's software renderer)";
  glDeleteShader(shader);
  return 0;
}

// A program of one vertex and one fragment shader; 0 with `error` saying what to do when the
// driver rejects a shader or cannot link them. `what` names the program in that message.
GLuint link_program(const char* vertex_source, const char* vertex_name, const char* fragment_source,
                    const char* fragment_name, const char* what, std::string& error) {
  const GLuint vertex = compile(GL_VERTEX_SHADER, vertex_source, vertex_name, error);
  if (vertex == 0) return 0;
  const GLuint fragment = compile(GL_FRAGMENT_SHADER, fragment_source, fragment_name, error);
  if (fragment == 0) {
    glDeleteShader(vertex);
    return 0;
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, vertex);
  glAttachShader(program, fragment);
  glLinkProgram(program);
  glDeleteShader(vertex);
  glDeleteShader(fragment);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  if (linked) return program;
  error = std::string("the OpenGL driver could not link ") + what + ": " + info_log(program, glGetProgramInfoLog) +
          " (update the graphics driver, or try LIBGL_ALWAYS_SOFTWARE=1)";
  glDeleteProgram(program);
  return 0;
}

// The data buffers are copied into 2D textures of kTextureRow texels a row (the shader's
// u_row): WebGL2 has no buffer textures, and one path keeps both targets' pixels the same. The
// copy runs on the GPU (the buffer bound as GL_PIXEL_UNPACK_BUFFER), so data a CUDA kernel
// wrote into the buffer never visits the host. A row of 2048 texels is within the texture size
// every GL 3.3 and WebGL2 implementation supports; 256 GPUs' cells (196608 texels) take 96 rows.
constexpr int kTextureRow = 2048;

struct TexelFormat {
  GLenum internal, format, type;
  int bytes;
};
constexpr TexelFormat kCellTexels{GL_RGBA32UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT, 16};
constexpr TexelFormat kBinTexels{GL_RG32F, GL_RG, GL_FLOAT, 8};
constexpr TexelFormat kPaletteTexels{GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4};

// Copies `texels` texels of `buffer` into `texture` (sized to hold them: whole rows, then the
// rest), and puts back every binding and unpack setting it changes.
void to_texture(GLuint buffer, GLuint texture, const TexelFormat& texel, std::size_t texels) {
  GLint previous_active = 0, previous_texture = 0, previous_unpack = 0, row_length = 0, skip_rows = 0,
        skip_pixels = 0, alignment = 0;
  glGetIntegerv(GL_ACTIVE_TEXTURE, &previous_active);
  glActiveTexture(GL_TEXTURE0);
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous_texture);
  glGetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &previous_unpack);
  glGetIntegerv(GL_UNPACK_ROW_LENGTH, &row_length);
  glGetIntegerv(GL_UNPACK_SKIP_ROWS, &skip_rows);
  glGetIntegerv(GL_UNPACK_SKIP_PIXELS, &skip_pixels);
  glGetIntegerv(GL_UNPACK_ALIGNMENT, &alignment);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
  glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);

  const std::size_t rows = std::max<std::size_t>(1, (texels + kTextureRow - 1) / kTextureRow);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexImage2D(GL_TEXTURE_2D, 0, static_cast<GLint>(texel.internal), kTextureRow, static_cast<GLsizei>(rows), 0,
               texel.format, texel.type, nullptr);
  // Integer textures are incomplete with any filter but GL_NEAREST; texelFetch ignores it otherwise.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer);
  const std::size_t whole_rows = texels / kTextureRow, rest = texels % kTextureRow;
  if (whole_rows > 0)
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, kTextureRow, static_cast<GLsizei>(whole_rows), texel.format, texel.type,
                    nullptr);
  if (rest > 0)
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, static_cast<GLint>(whole_rows), static_cast<GLsizei>(rest), 1, texel.format,
                    texel.type,
                    reinterpret_cast<const void*>(whole_rows * kTextureRow * static_cast<std::size_t>(texel.bytes)));

  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, static_cast<GLuint>(previous_unpack));
  glPixelStorei(GL_UNPACK_ROW_LENGTH, row_length);
  glPixelStorei(GL_UNPACK_SKIP_ROWS, skip_rows);
  glPixelStorei(GL_UNPACK_SKIP_PIXELS, skip_pixels);
  glPixelStorei(GL_UNPACK_ALIGNMENT, alignment);
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(previous_texture));
  glActiveTexture(static_cast<GLenum>(previous_active));
}

// Buffer uploads bind GL_ARRAY_BUFFER (any target would do: the buffers are only ever read as
// pixel sources); put back whatever was bound there.
class ArrayBufferBindingGuard {
 public:
  ArrayBufferBindingGuard() { glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &previous_); }
  ~ArrayBufferBindingGuard() { glBindBuffer(GL_ARRAY_BUFFER, static_cast<GLuint>(previous_)); }

 private:
  GLint previous_ = 0;
};

void set_colour(GLint location, Rgb c) { glUniform4f(location, c.r / 255.f, c.g / 255.f, c.b / 255.f, 1.0f); }

}  // namespace

CellRenderer::~CellRenderer() {
  if (program_ == 0) return;  // never initialised: no context to talk to
  glDeleteProgram(program_);
  if (composite_program_ != 0) glDeleteProgram(composite_program_);
  if (cache_framebuffer_ != 0) glDeleteFramebuffers(1, &cache_framebuffer_);
  if (cache_texture_ != 0) glDeleteTextures(1, &cache_texture_);
  glDeleteVertexArrays(1, &vertex_array_);
  const GLuint buffers[] = {vertex_buffer_, cells_buffer_, bins_buffer_, palette_buffer_};
  glDeleteBuffers(4, buffers);
  const GLuint textures[] = {cells_texture_, bins_texture_, palette_texture_};
  glDeleteTextures(3, textures);
}

bool CellRenderer::init(std::string& error) {
  program_ = link_program(shaders::k_cells_vert, "cells.vert.glsl", shaders::k_cells_frag, "cells.frag.glsl",
                          "the cell shaders", error);
  if (program_ == 0) return false;
  // The composite pass: same quads, one texel fetch from the cached layer.
  composite_program_ = link_program(shaders::k_cells_vert, "cells.vert.glsl", shaders::k_cells_composite_frag,
                                    "cells_composite.frag.glsl", "the cell composite shader", error);
  if (composite_program_ == 0) return false;
  composite_projection_ = glGetUniformLocation(composite_program_, "u_projection");

  auto at = [&](const char* name) { return glGetUniformLocation(program_, name); };
  uniforms_ = {at("u_projection"), at("u_cells"), at("u_bins"), at("u_palette"), at("u_row"), at("u_ranks"),
               at("u_slots"), at("u_columns"), at("u_bins_per_slot"), at("u_cell_size"), at("u_gap"),
               at("u_band"), at("u_band_mode"), at("u_hatch_a"), at("u_hatch_b"),
               at("u_stale_target"), at("u_stale_amount"), at("u_nan_colour")};

  GLint previous_program = 0, previous_vao = 0, previous_array = 0;
  glGetIntegerv(GL_CURRENT_PROGRAM, &previous_program);
  glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &previous_vao);
  glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &previous_array);
  glUseProgram(program_);
  glUniform1i(uniforms_.cells, 0);
  glUniform1i(uniforms_.bins, 1);
  glUniform1i(uniforms_.palette, 2);
  glUseProgram(composite_program_);
  glUniform1i(glGetUniformLocation(composite_program_, "u_cache"), 0);

  glGenVertexArrays(1, &vertex_array_);
  glGenBuffers(1, &vertex_buffer_);
  glBindVertexArray(vertex_array_);
  glBindBuffer(GL_ARRAY_BUFFER, vertex_buffer_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(Vertex), reinterpret_cast<void*>(offsetof(Vertex, x)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, sizeof(Vertex), reinterpret_cast<void*>(offsetof(Vertex, u)));
  glEnableVertexAttribArray(2);
  glVertexAttribIPointer(2, 1, GL_INT, sizeof(Vertex), reinterpret_cast<void*>(offsetof(Vertex, rank)));

  glGenBuffers(1, &cells_buffer_);
  glGenBuffers(1, &bins_buffer_);
  glGenBuffers(1, &palette_buffer_);
  glGenTextures(1, &cells_texture_);
  glGenTextures(1, &bins_texture_);
  glGenTextures(1, &palette_texture_);

  glBindVertexArray(static_cast<GLuint>(previous_vao));
  glBindBuffer(GL_ARRAY_BUFFER, static_cast<GLuint>(previous_array));
  glUseProgram(static_cast<GLuint>(previous_program));
  reserve(1, 1, 1);
  upload_palette({Rgb{}});
  return true;
}

void CellRenderer::reserve(int ranks, int slots, int bins_per_slot) {
  if (ranks == ranks_ && slots == slots_ && bins_per_slot == bins_per_slot_) return;
  ++version_;
  ranks_ = ranks;
  slots_ = slots;
  bins_per_slot_ = bins_per_slot;
  const std::size_t cells = static_cast<std::size_t>(ranks) * static_cast<std::size_t>(slots);
  ArrayBufferBindingGuard guard;
  glBindBuffer(GL_ARRAY_BUFFER, cells_buffer_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(cells * kCellWords * sizeof(std::uint32_t)),
               nullptr, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, bins_buffer_);
  glBufferData(GL_ARRAY_BUFFER,
               static_cast<GLsizeiptr>(cells * static_cast<std::size_t>(bins_per_slot) * 2 * sizeof(float)),
               nullptr, GL_DYNAMIC_DRAW);
}

void CellRenderer::upload(const VisualCells& cells) {
  ++version_;
  reserve(cells.ranks, cells.slots, cells.bins_per_slot);
  ArrayBufferBindingGuard guard;
  glBindBuffer(GL_ARRAY_BUFFER, cells_buffer_);
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(cells.cells.size() * sizeof(std::uint32_t)),
                  cells.cells.data());
  glBindBuffer(GL_ARRAY_BUFFER, bins_buffer_);
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(cells.bins.size() * sizeof(float)),
                  cells.bins.data());
}

void CellRenderer::upload_palette(const std::vector<Rgb>& palette) {
  ++version_;
  std::vector<std::uint8_t> rgba;
  rgba.reserve(palette.size() * 4);
  for (const Rgb& c : palette) rgba.insert(rgba.end(), {c.r, c.g, c.b, 255});
  ArrayBufferBindingGuard guard;
  glBindBuffer(GL_ARRAY_BUFFER, palette_buffer_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(rgba.size()), rgba.data(), GL_STATIC_DRAW);
  palette_texels_ = palette.size();
}

void CellRenderer::queue(ImDrawList* draw_list, CellPass pass) {
  pass_ = std::move(pass);
  draw_list->AddCallback(&CellRenderer::draw_callback, this);
}

bool CellRenderer::describe(const ImDrawCmd& command, int framebuffer_height, CallbackFootprint& out) {
  if (command.UserCallback != &CellRenderer::draw_callback) return false;
  const CellRenderer& renderer = *static_cast<const CellRenderer*>(command.UserCallbackData);
  const Rect& clip = renderer.pass_.clip;
  // Its scissor box as draw() computes it (display at (0, 0), scale 1).
  const int x = static_cast<int>(clip.x), y_up = static_cast<int>(static_cast<float>(framebuffer_height) - clip.bottom());
  const int w = static_cast<int>(clip.w), h = static_cast<int>(clip.h);
  out.bounds = PixelRect{x, framebuffer_height - y_up - h, x + w, framebuffer_height - y_up}.intersected(
      {0, 0, 1 << 30, framebuffer_height});
  out.content = renderer.pass_key(0, framebuffer_height);
  return true;
}

void CellRenderer::draw_callback(const ImDrawList*, const ImDrawCmd* command) {
  static_cast<CellRenderer*>(command->UserCallbackData)->draw();
}

namespace {

// FNV-1a over the bytes of plain values: what the cached cell layer was drawn from.
struct KeyHash {
  std::uint64_t value = 1469598103934665603ull;
  template <class T>
  void add(const T& item) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(&item);
    for (std::size_t i = 0; i < sizeof(T); ++i) value = (value ^ bytes[i]) * 1099511628211ull;
  }
};

}  // namespace

std::uint64_t CellRenderer::pass_key(int framebuffer_width, int framebuffer_height) const {
  KeyHash h;
  h.add(version_);
  h.add(framebuffer_width);
  h.add(framebuffer_height);
  for (const CellPass::Box& box : pass_.boxes) {
    h.add(box.cells.x), h.add(box.cells.y), h.add(box.cells.w), h.add(box.cells.h);
    h.add(box.rank);
  }
  h.add(pass_.clip.x), h.add(pass_.clip.y), h.add(pass_.clip.w), h.add(pass_.clip.h);
  h.add(pass_.ranks), h.add(pass_.slots), h.add(pass_.columns), h.add(pass_.rows);
  h.add(pass_.cell_size.x), h.add(pass_.cell_size.y), h.add(pass_.gap), h.add(pass_.band);
  h.add(pass_.band_mode);
  h.add(pass_.hatch_a), h.add(pass_.hatch_b), h.add(pass_.stale_target), h.add(pass_.nan_colour);
  h.add(pass_.stale_amount);
  h.add(bins_per_slot_);
  return h.value == 0 ? 1 : h.value;
}

void CellRenderer::draw_cells(const float* projection, float sx, float sy) {
  glUseProgram(program_);
  glUniformMatrix4fv(uniforms_.projection, 1, GL_FALSE, projection);
  glUniform1i(uniforms_.ranks, pass_.ranks);
  glUniform1i(uniforms_.slots, pass_.slots);
  glUniform1i(uniforms_.columns, pass_.columns);
  glUniform1i(uniforms_.bins_per_slot, bins_per_slot_);
  glUniform2f(uniforms_.cell_size, pass_.cell_size.x * sx, pass_.cell_size.y * sy);
  glUniform1f(uniforms_.gap, pass_.gap * sx);
  glUniform1f(uniforms_.band, pass_.band);
  glUniform1i(uniforms_.band_mode, static_cast<int>(pass_.band_mode));
  set_colour(uniforms_.hatch_a, pass_.hatch_a);
  set_colour(uniforms_.hatch_b, pass_.hatch_b);
  set_colour(uniforms_.stale_target, pass_.stale_target);
  glUniform1f(uniforms_.stale_amount, pass_.stale_amount);
  set_colour(uniforms_.nan_colour, pass_.nan_colour);
  if (textures_version_ != version_) {
    const std::size_t cells = static_cast<std::size_t>(ranks_) * static_cast<std::size_t>(slots_);
    to_texture(cells_buffer_, cells_texture_, kCellTexels, cells * (kCellWords / 4));
    to_texture(bins_buffer_, bins_texture_, kBinTexels, cells * static_cast<std::size_t>(bins_per_slot_));
    to_texture(palette_buffer_, palette_texture_, kPaletteTexels, palette_texels_);
    textures_version_ = version_;
  }
  glUniform1i(uniforms_.row, kTextureRow);
  const GLuint textures[3] = {cells_texture_, bins_texture_, palette_texture_};
  for (int unit = 0; unit < 3; ++unit) {
    glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(unit));
    glBindTexture(GL_TEXTURE_2D, textures[unit]);
  }
  glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(pass_.boxes.size() * 6));
}

void CellRenderer::draw() {
  const ImDrawData* frame = ImGui::GetDrawData();
  if (frame == nullptr || pass_.boxes.empty() || program_ == 0) return;

  // Save what we change; ImGui's backend expects its own state back after a callback.
  GLint program = 0, vao = 0, array_buffer = 0, active_texture = 0, scissor_box[4] = {}, viewport[4] = {};
  GLint draw_framebuffer = 0, read_framebuffer = 0;
  GLint texture_units[3] = {};
  GLfloat clear_colour[4] = {};
  glGetIntegerv(GL_CURRENT_PROGRAM, &program);
  glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vao);
  glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &array_buffer);
  glGetIntegerv(GL_ACTIVE_TEXTURE, &active_texture);
  glGetIntegerv(GL_SCISSOR_BOX, scissor_box);
  glGetIntegerv(GL_VIEWPORT, viewport);
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_framebuffer);
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_framebuffer);
  glGetFloatv(GL_COLOR_CLEAR_VALUE, clear_colour);
  const GLboolean blend = glIsEnabled(GL_BLEND);
  const GLboolean scissor = glIsEnabled(GL_SCISSOR_TEST);
  for (int unit = 0; unit < 3; ++unit) {
    glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(unit));
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &texture_units[unit]);
  }

  // Geometry: one quad per GPU; the fragment shader resolves cells.
  std::vector<Vertex> vertices;
  vertices.reserve(pass_.boxes.size() * 6);
  const float columns = static_cast<float>(pass_.columns), rows = static_cast<float>(pass_.rows);
  for (const CellPass::Box& box : pass_.boxes) {
    const Rect& r = box.cells;
    const Vertex a{r.x, r.y, 0, 0, box.rank}, b{r.right(), r.y, columns, 0, box.rank},
        c{r.right(), r.bottom(), columns, rows, box.rank}, d{r.x, r.bottom(), 0, rows, box.rank};
    vertices.insert(vertices.end(), {a, b, c, a, c, d});
  }
  glBindVertexArray(vertex_array_);
  glBindBuffer(GL_ARRAY_BUFFER, vertex_buffer_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(Vertex)), vertices.data(),
               GL_STREAM_DRAW);

  // The same pixel-to-clip mapping ImGui uses, so cells line up with ImGui's drawing.
  const float l = frame->DisplayPos.x, r = frame->DisplayPos.x + frame->DisplaySize.x;
  const float t = frame->DisplayPos.y, bottom = frame->DisplayPos.y + frame->DisplaySize.y;
  const float projection[16] = {2 / (r - l), 0, 0, 0, 0, 2 / (t - bottom), 0, 0, 0, 0, -1, 0,
                                (r + l) / (l - r), (t + bottom) / (bottom - t), 0, 1};
  const float sx = frame->FramebufferScale.x, sy = frame->FramebufferScale.y;
  const int width = static_cast<int>(std::lround(frame->DisplaySize.x * sx));
  const int height = static_cast<int>(std::lround(frame->DisplaySize.y * sy));
  const float framebuffer_height = frame->DisplaySize.y * sy;
  // Cells are opaque: exact palette colours, which the pixel tests rely on.
  glDisable(GL_BLEND);
  glEnable(GL_SCISSOR_TEST);
  const GLint clip[4] = {static_cast<GLint>((pass_.clip.x - l) * sx),
                         static_cast<GLint>(framebuffer_height - (pass_.clip.bottom() - t) * sy),
                         static_cast<GLsizei>(pass_.clip.w * sx), static_cast<GLsizei>(pass_.clip.h * sy)};

  // Redraw the cached layer only when something it shows has changed.
  const std::uint64_t key = pass_key(width, height);
  if (key != cache_key_ && width > 0 && height > 0) {
    if (cache_framebuffer_ == 0) {
      glGenFramebuffers(1, &cache_framebuffer_);
      glGenTextures(1, &cache_texture_);
    }
    if (width != cache_width_ || height != cache_height_) {
      glBindTexture(GL_TEXTURE_2D, cache_texture_);
      glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
      glBindFramebuffer(GL_FRAMEBUFFER, cache_framebuffer_);
      glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, cache_texture_, 0);
      cache_width_ = width;
      cache_height_ = height;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, cache_framebuffer_);
    glViewport(0, 0, width, height);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(0, 0, 0, 0);  // alpha 0: "no cell here" for the composite pass
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(clip[0], clip[1], clip[2], clip[3]);
    draw_cells(projection, sx, sy);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(draw_framebuffer));
    glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read_framebuffer));
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
    cache_key_ = key;
  }

  // Copy the cached layer over the cell quads.
  int limited[4] = {clip[0], clip[1], clip[2], clip[3]};
  limit_scissor_to_damage(limited, static_cast<int>(framebuffer_height));
  glScissor(limited[0], limited[1], limited[2], limited[3]);
  glUseProgram(composite_program_);
  glUniformMatrix4fv(composite_projection_, 1, GL_FALSE, projection);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, cache_texture_);
  glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(vertices.size()));

  for (int unit = 0; unit < 3; ++unit) {
    glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(unit));
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(texture_units[unit]));
  }
  glActiveTexture(static_cast<GLenum>(active_texture));
  glClearColor(clear_colour[0], clear_colour[1], clear_colour[2], clear_colour[3]);
  glScissor(scissor_box[0], scissor_box[1], scissor_box[2], scissor_box[3]);
  if (scissor) glEnable(GL_SCISSOR_TEST); else glDisable(GL_SCISSOR_TEST);
  if (blend) glEnable(GL_BLEND); else glDisable(GL_BLEND);
  glUseProgram(static_cast<GLuint>(program));
  glBindBuffer(GL_ARRAY_BUFFER, static_cast<GLuint>(array_buffer));
  glBindVertexArray(static_cast<GLuint>(vao));
}

}  // namespace ringviz::gui
