// The #version line (GL 3.3 core or GLSL ES 3.00) is put in front at load (app/platform/gl.h).
// One quad per GPU box covering its cell area. The fragment shader finds the slot under each
// pixel from v_cell_uv, so the vertex count stays 6 per GPU however many cells there are.
layout(location = 0) in vec2 a_position;  // framebuffer pixels, y down (ImGui's coordinates)
layout(location = 1) in vec2 a_cell_uv;   // x in [0, columns], y in [0, rows], y down
layout(location = 2) in int a_rank;

uniform mat4 u_projection;

out vec2 v_cell_uv;
flat out int v_rank;

void main() {
  v_cell_uv = a_cell_uv;
  v_rank = a_rank;
  gl_Position = u_projection * vec4(a_position, 0.0, 1.0);
}
