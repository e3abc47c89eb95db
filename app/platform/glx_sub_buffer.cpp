#include "app/platform/glx_sub_buffer.h"

#include <dlfcn.h>

#include <cstring>
#include <initializer_list>

#include "app/platform/gl.h"

namespace ringviz::platform {

namespace {

// GLX's types, opaque here: including GL/glx.h would need Xlib's headers, which the builds
// without X11 development files (a bare GPU machine) lack.
using GetCurrentDisplay = void* (*)();
using GetCurrentDrawable = unsigned long (*)();
using GetCurrentContext = void* (*)();
using QueryContext = int (*)(void* display, void* context, int attribute, int* value);
using QueryExtensionsString = const char* (*)(void* display, int screen);
using GetProcAddress = void* (*)(const unsigned char* name);
constexpr int kGlxScreen = 0x800C;  // GLX_SCREEN

// Whether `list` (space-separated names) holds `name` whole.
bool names(const char* list, const char* name) {
  const std::size_t length = std::strlen(name);
  for (const char* at = list; (at = std::strstr(at, name)) != nullptr; at += length)
    if ((at == list || at[-1] == ' ') && (at[length] == ' ' || at[length] == '\0')) return true;
  return false;
}

}  // namespace

bool GlxSubBufferCopy::open() {
  copy_ = nullptr;
  // GLFW opens GLX with RTLD_LOCAL (glvnd's libGLX first, then libGL): find the one it loaded.
  void* library = nullptr;
  for (const char* soname : {"libGLX.so.0", "libGL.so.1", "libGL.so"})
    if ((library = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD)) != nullptr) break;
  if (library == nullptr) return false;
  const auto current_display = reinterpret_cast<GetCurrentDisplay>(dlsym(library, "glXGetCurrentDisplay"));
  const auto current_drawable = reinterpret_cast<GetCurrentDrawable>(dlsym(library, "glXGetCurrentDrawable"));
  const auto current_context = reinterpret_cast<GetCurrentContext>(dlsym(library, "glXGetCurrentContext"));
  const auto query_context = reinterpret_cast<QueryContext>(dlsym(library, "glXQueryContext"));
  const auto extensions = reinterpret_cast<QueryExtensionsString>(dlsym(library, "glXQueryExtensionsString"));
  const auto proc_address = reinterpret_cast<GetProcAddress>(dlsym(library, "glXGetProcAddressARB"));
  const auto swap = reinterpret_cast<SwapFunction>(dlsym(library, "glXSwapBuffers"));
  dlclose(library);  // only drops the reference NOLOAD took: GLFW keeps it loaded
  if (!current_display || !current_drawable || !current_context || !query_context || !extensions || !proc_address ||
      !swap)
    return false;
  void* display = current_display();
  void* context = current_context();
  const unsigned long drawable = current_drawable();
  int screen = 0;
  if (display == nullptr || context == nullptr || drawable == 0 || query_context(display, context, kGlxScreen, &screen) != 0)
    return false;  // not a GLX context (an EGL one has no current GLX display)
  const char* list = extensions(display, screen);
  // glvnd hands out a function for any name: only the extension string says the driver has it.
  if (list == nullptr || !names(list, "GLX_MESA_copy_sub_buffer")) return false;
  copy_ = reinterpret_cast<CopyFunction>(proc_address(reinterpret_cast<const unsigned char*>("glXCopySubBufferMESA")));
  display_ = display;
  drawable_ = drawable;
  swap_ = swap;
  return copy_ != nullptr;
}

void GlxSubBufferCopy::copy(int x, int y, int width, int height) const {
  if (copy_ != nullptr && width > 0 && height > 0) copy_(display_, drawable_, x, y, width, height);
}

void GlxSubBufferCopy::follow_window_size() const {
  if (swap_ != nullptr) swap_(display_, drawable_);
}

bool software_renderer() {
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  if (renderer == nullptr) return false;
  for (const char* name : {"llvmpipe", "softpipe", "swrast"})
    if (std::strstr(renderer, name) != nullptr) return true;
  return false;
}

}  // namespace ringviz::platform
