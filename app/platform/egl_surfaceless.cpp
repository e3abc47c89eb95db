#include "app/platform/egl_surfaceless.h"

#include <cstdio>
#include <cstring>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "app/platform/gl.h"

namespace ringviz::platform {

namespace {

bool has_extension(const char* list, const char* name) {
  if (list == nullptr) return false;
  const std::size_t length = std::strlen(name);
  for (const char* p = list; (p = std::strstr(p, name)) != nullptr; p += length)
    if ((p == list || p[-1] == ' ') && (p[length] == ' ' || p[length] == '\0')) return true;
  return false;
}

std::string egl_error_text() {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "EGL error 0x%04x", static_cast<unsigned>(eglGetError()));
  return buffer;
}

constexpr const char* kAdvice =
    "; run under an X server (set DISPLAY, or use xvfb-run -a) or install Mesa's EGL "
    "(libegl-mesa0) for rendering without a display";

}  // namespace

std::unique_ptr<EglSurfaceless> EglSurfaceless::create(std::string& error) {
  const char* client_extensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (!has_extension(client_extensions, "EGL_MESA_platform_surfaceless")) {
    error = "EGL has no surfaceless platform (EGL_MESA_platform_surfaceless is missing)";
    error += kAdvice;
    return nullptr;
  }
  auto get_platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (get_platform_display == nullptr) {
    error = std::string("EGL lacks eglGetPlatformDisplayEXT") + kAdvice;
    return nullptr;
  }
  EGLDisplay display = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  EGLint major = 0, minor = 0;
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor)) {
    error = "EGL could not open the surfaceless display (" + egl_error_text() + ")" + kAdvice;
    return nullptr;
  }
  auto fail = [&](const std::string& what) -> std::unique_ptr<EglSurfaceless> {
    error = what + " (" + egl_error_text() + ")" + kAdvice;
    eglTerminate(display);
    return nullptr;
  };
  if (!has_extension(eglQueryString(display, EGL_EXTENSIONS), "EGL_KHR_surfaceless_context"))
    return fail("EGL cannot make a context current without a surface");
  if (!eglBindAPI(EGL_OPENGL_API)) return fail("EGL has no desktop OpenGL");

  const EGLint config_attributes[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_RED_SIZE, 8,
                                      EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint config_count = 0;
  if (!eglChooseConfig(display, config_attributes, &config, 1, &config_count) || config_count < 1)
    config = nullptr;  // EGL_KHR_no_config_context: Mesa accepts a context without a config
  const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                       EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                       EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
  if (context == EGL_NO_CONTEXT) return fail("EGL could not create an OpenGL 3.3 core context");
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    eglDestroyContext(display, context);
    return fail("EGL could not make the context current");
  }

  std::unique_ptr<EglSurfaceless> result(new EglSurfaceless());
  result->display_ = display;
  result->context_ = context;
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  result->description_ = std::string("EGL surfaceless, ") + (renderer ? renderer : "unknown renderer");
  return result;
}

EglSurfaceless::~EglSurfaceless() {
  if (display_ == nullptr) return;
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display_, context_);
  eglTerminate(display_);
  eglReleaseThread();
}

}  // namespace ringviz::platform
