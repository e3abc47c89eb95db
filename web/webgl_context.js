// The page's WebGL2 context, as the browser host needs it (linked with --pre-js, see
// web/CMakeLists.txt; docs/architecture.md, "The browser build", frame time).
//
// 1. Made with preserveDrawingBuffer: the canvas keeps its pixels from one frame to the next,
//    so a frame redraws only what changed, straight into it (KeptFrame's destination path).
//    Without it the canvas starts every frame empty, and the frame would be kept elsewhere and
//    copied whole, which on SwiftShader costs more than drawing it. Emscripten's GLFW offers
//    no such attribute: the canvas's own getContext adds it (this canvas only).
(function () {
  var canvas = Module['canvas'];
  var getContext = canvas.getContext;
  canvas.getContext = function (type, attributes) {
    if (type === 'webgl2' || type === 'webgl')
      attributes = Object.assign({}, attributes || {}, { preserveDrawingBuffer: true });
    return getContext.call(canvas, type, attributes);
  };
})();

// 2. The state queries that Dear ImGui's OpenGL3 backend and the cell renderer make to save and
//    restore state around every draw (the scissor box, the clear colour, the blend functions
//    and equations), answered from a copy kept in the page. Chromium answers these by asking
//    the GPU process, a synchronous round trip that first waits for every draw call queued
//    before it: the page then waited for the software rasteriser several times a frame (90% of
//    its main thread's time) instead of letting it draw while the next frame was built. State
//    that Chromium answers without a round trip (bindings, enabled capabilities, the viewport)
//    is left to it. app/web/browser_page.cpp calls Module.mirrorGlState(Module.ctx) once,
//    right after the context is made.
Module['mirrorGlState'] = function (gl) {
  if (gl.ringvizMirrored) return;
  gl.ringvizMirrored = true;
  // Read once, the slow way: the context may have been used already.
  var scissor = Array.from(gl.getParameter(gl.SCISSOR_BOX));
  var clear = Array.from(gl.getParameter(gl.COLOR_CLEAR_VALUE));
  var blend = {};
  var blendNames = [gl.BLEND_SRC_RGB, gl.BLEND_DST_RGB, gl.BLEND_SRC_ALPHA, gl.BLEND_DST_ALPHA,
                    gl.BLEND_EQUATION_RGB, gl.BLEND_EQUATION_ALPHA];
  blendNames.forEach(function (name) { blend[name] = gl.getParameter(name); });

  var getParameter = gl.getParameter;
  gl.getParameter = function (name) {
    if (name === gl.SCISSOR_BOX) return new Int32Array(scissor);
    if (name === gl.COLOR_CLEAR_VALUE) return new Float32Array(clear);
    if (blend.hasOwnProperty(name)) return blend[name];
    return getParameter.call(gl, name);
  };
  // Each setter records what it set, and only what WebGL accepts (a refused call changes nothing).
  var scissorCall = gl.scissor;
  gl.scissor = function (x, y, width, height) {
    scissorCall.call(gl, x, y, width, height);
    if (width >= 0 && height >= 0) scissor = [x | 0, y | 0, width | 0, height | 0];
  };
  var clearColor = gl.clearColor;
  gl.clearColor = function (r, g, b, a) {
    clearColor.call(gl, r, g, b, a);
    clear = [r, g, b, a].map(Math.fround);
  };
  var blendFunctions = [gl.ZERO, gl.ONE, gl.SRC_COLOR, gl.ONE_MINUS_SRC_COLOR, gl.DST_COLOR, gl.ONE_MINUS_DST_COLOR,
                        gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.DST_ALPHA, gl.ONE_MINUS_DST_ALPHA, gl.CONSTANT_COLOR,
                        gl.ONE_MINUS_CONSTANT_COLOR, gl.CONSTANT_ALPHA, gl.ONE_MINUS_CONSTANT_ALPHA, gl.SRC_ALPHA_SATURATE];
  var blendEquations = [gl.FUNC_ADD, gl.FUNC_SUBTRACT, gl.FUNC_REVERSE_SUBTRACT, gl.MIN, gl.MAX];
  var valid = function (list, values) { return values.every(function (v) { return list.indexOf(v) >= 0; }); };
  var blendFuncSeparate = gl.blendFuncSeparate;
  gl.blendFuncSeparate = function (srcRgb, dstRgb, srcAlpha, dstAlpha) {
    blendFuncSeparate.call(gl, srcRgb, dstRgb, srcAlpha, dstAlpha);
    if (!valid(blendFunctions, [srcRgb, dstRgb, srcAlpha, dstAlpha])) return;
    blend[gl.BLEND_SRC_RGB] = srcRgb; blend[gl.BLEND_DST_RGB] = dstRgb;
    blend[gl.BLEND_SRC_ALPHA] = srcAlpha; blend[gl.BLEND_DST_ALPHA] = dstAlpha;
  };
  var blendFunc = gl.blendFunc;
  gl.blendFunc = function (src, dst) {
    blendFunc.call(gl, src, dst);
    if (!valid(blendFunctions, [src, dst])) return;
    blend[gl.BLEND_SRC_RGB] = blend[gl.BLEND_SRC_ALPHA] = src;
    blend[gl.BLEND_DST_RGB] = blend[gl.BLEND_DST_ALPHA] = dst;
  };
  var blendEquationSeparate = gl.blendEquationSeparate;
  gl.blendEquationSeparate = function (rgb, alpha) {
    blendEquationSeparate.call(gl, rgb, alpha);
    if (!valid(blendEquations, [rgb, alpha])) return;
    blend[gl.BLEND_EQUATION_RGB] = rgb; blend[gl.BLEND_EQUATION_ALPHA] = alpha;
  };
  var blendEquation = gl.blendEquation;
  gl.blendEquation = function (mode) {
    blendEquation.call(gl, mode);
    if (!valid(blendEquations, [mode])) return;
    blend[gl.BLEND_EQUATION_RGB] = blend[gl.BLEND_EQUATION_ALPHA] = mode;
  };
};

// 3. A write of no bytes writes nothing. Emscripten 3.1.6's glBufferSubData hands WebGL2 its
//    whole heap as the source with a length, and WebGL2 reads a length of 0 as "to the end of
//    the source": an empty upload (Dear ImGui's backend uploads a draw list that holds only
//    callbacks, with no vertices) became a 16 MB write into a smaller buffer, refused with
//    "bufferSubData: buffer overflow" on the console (and a GL error). GL's own meaning of a
//    size of 0 is nothing to do.
(function () {
  var context = WebGL2RenderingContext.prototype;
  var bufferSubData = context.bufferSubData;
  context.bufferSubData = function (target, offset, source, sourceOffset, length) {
    if (arguments.length === 5 && length === 0) return;
    return bufferSubData.apply(this, arguments);
  };
})();
