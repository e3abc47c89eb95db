#pragma once
// The one place that includes the OpenGL headers for our own GL code. Functions come straight
// from libOpenGL (glvnd), which dispatches to whichever context is current, GLX or EGL, so no
// loader is needed. Do not include imgui_impl_opengl3_loader.h next to this: its macros
// would shadow these prototypes.
#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/gl.h>
#include <GL/glext.h>
