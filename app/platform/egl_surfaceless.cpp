#include "app/platform/egl_surfaceless.h"

#include <cstdio>
#include <cstring>
#include <vector>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "app/platform/egl_device_choice.h"
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
    "(libegl-mesa0) for rendering without a display; on an NVIDIA GPU, point "
    "__EGL_VENDOR_LIBRARY_FILENAMES at the driver's 10_nvidia.json";

// A context made current on an initialised display, and the 1x1 pbuffer it needed when the
// display cannot make a context current without a surface.
struct MadeContext {
  EGLContext context = EGL_NO_CONTEXT;
  EGLSurface pbuffer = EGL_NO_SURFACE;
};

// An OpenGL 3.3 core context on `display`, current on this thread; on failure `error` says
// which step failed (the display stays initialised: the caller terminates it).
bool make_current_context(EGLDisplay display, MadeContext& made, std::string& error) {
  auto fail = [&](const std::string& what) {
    error = what + " (" + egl_error_text() + ")";
    return false;
  };
  if (!eglBindAPI(EGL_OPENGL_API)) return fail("EGL has no desktop OpenGL");
  const bool surfaceless = has_extension(eglQueryString(display, EGL_EXTENSIONS), "EGL_KHR_surfaceless_context");
  const EGLint config_attributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                      EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint config_count = 0;
  if (!eglChooseConfig(display, config_attributes, &config, 1, &config_count) || config_count < 1) {
    if (!surfaceless) return fail("EGL offers no pbuffer configuration for OpenGL");
    config = nullptr;  // EGL_KHR_no_config_context: Mesa accepts a context without a config
  }
  const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                       EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                       EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  made.context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
  if (made.context == EGL_NO_CONTEXT) return fail("EGL could not create an OpenGL 3.3 core context");
  if (!surfaceless) {
    // Frames go to an OffscreenTarget; the pbuffer only gives the context somewhere to be current.
    const EGLint pbuffer_attributes[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
    made.pbuffer = eglCreatePbufferSurface(display, config, pbuffer_attributes);
    if (made.pbuffer == EGL_NO_SURFACE) {
      const bool failed = fail("EGL could not create a 1x1 pbuffer for a display without surfaceless contexts");
      eglDestroyContext(display, made.context);
      return failed;
    }
  }
  if (!eglMakeCurrent(display, made.pbuffer, made.pbuffer, made.context)) {
    const bool failed = fail("EGL could not make the context current");
    if (made.pbuffer != EGL_NO_SURFACE) eglDestroySurface(display, made.pbuffer);
    eglDestroyContext(display, made.context);
    return failed;
  }
  return true;
}

std::string current_renderer() {
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return renderer ? renderer : "unknown renderer";
}

// The devices EGL_EXT_device_enumeration lists; empty where the extensions are missing.
struct EglDevices {
  std::vector<EGLDeviceEXT> devices;
  std::vector<EglDeviceCandidate> candidates;
};

EglDevices query_devices(const char* client_extensions) {
  EglDevices found;
  // EGL_EXT_device_base is the older name of enumeration and query together.
  if (!has_extension(client_extensions, "EGL_EXT_platform_device") ||
      !(has_extension(client_extensions, "EGL_EXT_device_query") ||
        has_extension(client_extensions, "EGL_EXT_device_base")))
    return found;
  auto query_devices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  auto query_string = reinterpret_cast<PFNEGLQUERYDEVICESTRINGEXTPROC>(eglGetProcAddress("eglQueryDeviceStringEXT"));
  auto query_attribute = reinterpret_cast<PFNEGLQUERYDEVICEATTRIBEXTPROC>(eglGetProcAddress("eglQueryDeviceAttribEXT"));
  if (query_devices == nullptr || query_string == nullptr || query_attribute == nullptr) return found;
  constexpr EGLint kMaxDevices = 32;
  found.devices.resize(kMaxDevices);
  EGLint count = 0;
  if (!query_devices(kMaxDevices, found.devices.data(), &count) || count < 0) count = 0;
  found.devices.resize(static_cast<std::size_t>(count));
  for (EGLint i = 0; i < count; ++i) {
    const char* device_extensions = query_string(found.devices[static_cast<std::size_t>(i)], EGL_EXTENSIONS);
    EglDeviceCandidate candidate;
    candidate.index = i;
    candidate.software = has_extension(device_extensions, "EGL_MESA_device_software");
    EGLAttrib cuda_device = 0;
    if (has_extension(device_extensions, "EGL_NV_device_cuda") &&
        query_attribute(found.devices[static_cast<std::size_t>(i)], EGL_CUDA_DEVICE_NV, &cuda_device))
      candidate.cuda_device = static_cast<int>(cuda_device);
    found.candidates.push_back(candidate);
  }
  return found;
}

}  // namespace

std::unique_ptr<EglSurfaceless> EglSurfaceless::open_on_device(std::optional<int> preferred_cuda_device,
                                                               const char* client_extensions, std::string& error) {
  auto get_platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (get_platform_display == nullptr) return nullptr;
  const EglDevices found = query_devices(client_extensions);
  for (int index : egl_device_try_order(found.candidates, preferred_cuda_device)) {
    const std::string name = "EGL device " + std::to_string(index);
    EGLDisplay display =
        get_platform_display(EGL_PLATFORM_DEVICE_EXT, found.devices[static_cast<std::size_t>(index)], nullptr);
    if (display == EGL_NO_DISPLAY || !eglInitialize(display, nullptr, nullptr)) {
      error += (error.empty() ? "" : "; ") + name + " could not be opened (" + egl_error_text() + ")";
      continue;
    }
    MadeContext made;
    std::string why;
    if (!make_current_context(display, made, why)) {
      error += (error.empty() ? "" : "; ") + name + ": " + why;
      eglTerminate(display);
      continue;
    }
    return std::unique_ptr<EglSurfaceless>(
        new EglSurfaceless(display, made.context, made.pbuffer, name + " (" + current_renderer() + ")"));
  }
  return nullptr;
}

std::unique_ptr<EglSurfaceless> EglSurfaceless::create(std::optional<int> preferred_cuda_device, std::string& error) {
  const char* client_extensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  // The device platform first: the NVIDIA driver renders without a display only through it.
  std::string device_error;
  if (auto on_device = open_on_device(preferred_cuda_device, client_extensions, device_error)) return on_device;
  const std::string tried_devices = device_error.empty() ? "" : device_error + "; and ";

  if (!has_extension(client_extensions, "EGL_MESA_platform_surfaceless")) {
    error = tried_devices + "EGL has no surfaceless platform (EGL_MESA_platform_surfaceless is missing)";
    error += kAdvice;
    return nullptr;
  }
  auto get_platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (get_platform_display == nullptr) {
    error = tried_devices + "EGL lacks eglGetPlatformDisplayEXT" + kAdvice;
    return nullptr;
  }
  EGLDisplay display = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  EGLint major = 0, minor = 0;
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor)) {
    error = tried_devices + "EGL could not open the surfaceless display (" + egl_error_text() + ")" + kAdvice;
    return nullptr;
  }
  MadeContext made;
  std::string why;
  if (!make_current_context(display, made, why)) {
    error = tried_devices + why + kAdvice;
    eglTerminate(display);
    return nullptr;
  }
  return std::unique_ptr<EglSurfaceless>(
      new EglSurfaceless(display, made.context, made.pbuffer, "EGL surfaceless (" + current_renderer() + ")"));
}

EglSurfaceless::~EglSurfaceless() {
  if (display_ == nullptr) return;
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (pbuffer_ != nullptr) eglDestroySurface(display_, pbuffer_);
  eglDestroyContext(display_, context_);
  eglTerminate(display_);
  eglReleaseThread();
}

}  // namespace ringviz::platform
