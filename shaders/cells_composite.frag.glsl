// The #version line (GL 3.3 core or GLSL ES 3.00) is put in front at load (app/platform/gl.h).
// Copies the cached cell layer (drawn by cells.frag.glsl into a framebuffer-sized texture
// only when the cells change) back over the same quads: one texel fetch per pixel instead of
// the provenance lookup, on every frame where only packets move.
uniform sampler2D u_cache;
out vec4 frag_colour;

void main() {
  vec4 cached = texelFetch(u_cache, ivec2(gl_FragCoord.xy), 0);
  if (cached.a == 0.0) discard;  // a gap between cells, or outside the view
  frag_colour = vec4(cached.rgb, 1.0);
}
