#pragma once
// The one place that includes the OpenGL headers for our own GL code, and says which GL the
// build targets: OpenGL 3.3 core on the desktop, WebGL2 (OpenGL ES 3.0) in the browser
// (docs/architecture.md, "The browser build"). Our GL code uses only what both have.
//
// Desktop: functions come straight from libOpenGL (glvnd), which dispatches to whichever
// context is current, GLX or EGL, so no loader is needed. Do not include
// imgui_impl_opengl3_loader.h next to this: its macros would shadow these prototypes.
#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/gl.h>
#include <GL/glext.h>
#endif

namespace ringviz::platform {

// Put in front of every shader of shaders/ (which have no #version line), so that one source
// compiles as GLSL 3.30 core and as GLSL ES 3.00. ES wants precisions stated; highp is what
// GL 3.3 computes in anyway, so both targets compute the same values.
#ifdef __EMSCRIPTEN__
inline constexpr const char* kShaderPrologue =
    "#version 300 es\n"
    "precision highp float;\nprecision highp int;\nprecision highp sampler2D;\nprecision highp usampler2D;\n";
// What Dear ImGui's OpenGL3 backend is given for its own shaders.
inline constexpr const char* kImGuiGlslVersion = "#version 300 es";
#else
inline constexpr const char* kShaderPrologue = "#version 330 core\n";
inline constexpr const char* kImGuiGlslVersion = "#version 330 core";
#endif

}  // namespace ringviz::platform
