#include "tests/gpu/egl_context.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace ringviz::test {

namespace {

// EGL's types are opaque pointers and 32-bit ints; its enum values are fixed by the EGL
// specification, so no EGL header is needed.
using EGLDisplay = void*;
using EGLConfig = void*;
using EGLContext = void*;
using EGLDeviceEXT = void*;
using EGLint = std::int32_t;
using EGLBoolean = unsigned int;
using EGLenum = unsigned int;

constexpr EGLint kNone = 0x3038;
constexpr EGLint kRenderableType = 0x3040;
constexpr EGLint kOpenGlBit = 0x0008;
constexpr EGLint kContextMajor = 0x3098;
constexpr EGLint kContextMinor = 0x30FB;
constexpr EGLint kProfileMask = 0x30FD;
constexpr EGLint kCoreProfileBit = 0x0001;
constexpr EGLenum kOpenGlApi = 0x30A2;
constexpr EGLenum kPlatformDevice = 0x313F;
constexpr EGLenum kPlatformSurfacelessMesa = 0x31DD;
constexpr EGLint kVendor = 0x3053;

struct Egl {
  void* (*get_proc_address)(const char*) = nullptr;
  EGLDisplay (*get_display)(void*) = nullptr;
  EGLBoolean (*initialize)(EGLDisplay, EGLint*, EGLint*) = nullptr;
  EGLBoolean (*terminate)(EGLDisplay) = nullptr;
  EGLBoolean (*bind_api)(EGLenum) = nullptr;
  EGLBoolean (*choose_config)(EGLDisplay, const EGLint*, EGLConfig*, EGLint, EGLint*) = nullptr;
  EGLContext (*create_context)(EGLDisplay, EGLConfig, EGLContext, const EGLint*) = nullptr;
  EGLBoolean (*destroy_context)(EGLDisplay, EGLContext) = nullptr;
  EGLBoolean (*make_current)(EGLDisplay, void*, void*, EGLContext) = nullptr;
  const char* (*query_string)(EGLDisplay, EGLint) = nullptr;
  EGLBoolean (*query_devices)(EGLint, EGLDeviceEXT*, EGLint*) = nullptr;
  EGLDisplay (*get_platform_display)(EGLenum, void*, const EGLint*) = nullptr;
};

template <class F>
void load(void* library, F& function, const char* name) {
  function = reinterpret_cast<F>(dlsym(library, name));
}

template <class F>
void load_extension(const Egl& egl, F& function, const char* name) {
  function = reinterpret_cast<F>(egl.get_proc_address(name));
}

// Candidate displays, best first: each EGL device (the NVIDIA driver's is the one CUDA can
// share buffers with), then Mesa's surfaceless platform, then the default display.
std::vector<EGLDisplay> candidate_displays(const Egl& egl) {
  std::vector<EGLDisplay> displays;
  if (egl.query_devices && egl.get_platform_display) {
    EGLDeviceEXT devices[16] = {};
    EGLint count = 0;
    if (egl.query_devices(16, devices, &count))
      for (EGLint i = 0; i < count; ++i)
        if (EGLDisplay display = egl.get_platform_display(kPlatformDevice, devices[i], nullptr))
          displays.push_back(display);
    if (EGLDisplay display = egl.get_platform_display(kPlatformSurfacelessMesa, nullptr, nullptr))
      displays.push_back(display);
  }
  if (EGLDisplay display = egl.get_display(nullptr)) displays.push_back(display);
  return displays;
}

}  // namespace

std::unique_ptr<HeadlessGl> HeadlessGl::create(std::string& why) {
  void* library = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    why = "libEGL.so.1 is not available";
    return nullptr;
  }
  Egl egl;
  load(library, egl.get_proc_address, "eglGetProcAddress");
  load(library, egl.get_display, "eglGetDisplay");
  load(library, egl.initialize, "eglInitialize");
  load(library, egl.terminate, "eglTerminate");
  load(library, egl.bind_api, "eglBindAPI");
  load(library, egl.choose_config, "eglChooseConfig");
  load(library, egl.create_context, "eglCreateContext");
  load(library, egl.destroy_context, "eglDestroyContext");
  load(library, egl.make_current, "eglMakeCurrent");
  load(library, egl.query_string, "eglQueryString");
  if (!egl.get_proc_address || !egl.get_display || !egl.initialize || !egl.create_context ||
      !egl.make_current || !egl.choose_config || !egl.bind_api) {
    why = "libEGL lacks core entry points";
    dlclose(library);
    return nullptr;
  }
  load_extension(egl, egl.query_devices, "eglQueryDevicesEXT");
  load_extension(egl, egl.get_platform_display, "eglGetPlatformDisplayEXT");

  why = "no EGL display gave an OpenGL 3.3 core context";
  for (EGLDisplay display : candidate_displays(egl)) {
    EGLint major = 0, minor = 0;
    if (!egl.initialize(display, &major, &minor)) continue;
    const EGLint config_attributes[] = {kRenderableType, kOpenGlBit, kNone};
    EGLConfig config = nullptr;
    EGLint configs = 0;
    const EGLint context_attributes[] = {kContextMajor, 3, kContextMinor, 3, kProfileMask, kCoreProfileBit, kNone};
    EGLContext context = nullptr;
    if (egl.bind_api(kOpenGlApi) && egl.choose_config(display, config_attributes, &config, 1, &configs) &&
        configs > 0)
      context = egl.create_context(display, config, nullptr, context_attributes);
    if (context && egl.make_current(display, nullptr, nullptr, context)) {
      auto made = std::unique_ptr<HeadlessGl>(new HeadlessGl());
      made->library_ = library;
      made->display_ = display;
      made->context_ = context;
      GlFunctions& gl = made->gl_;
      load_extension(egl, gl.gen_buffers, "glGenBuffers");
      load_extension(egl, gl.delete_buffers, "glDeleteBuffers");
      load_extension(egl, gl.bind_buffer, "glBindBuffer");
      load_extension(egl, gl.buffer_data, "glBufferData");
      load_extension(egl, gl.buffer_sub_data, "glBufferSubData");
      load_extension(egl, gl.get_buffer_sub_data, "glGetBufferSubData");
      load_extension(egl, gl.finish, "glFinish");
      load_extension(egl, gl.get_string, "glGetString");
      if (gl.gen_buffers && gl.delete_buffers && gl.bind_buffer && gl.buffer_data && gl.buffer_sub_data &&
          gl.get_buffer_sub_data && gl.finish && gl.get_string) {
        const char* vendor = egl.query_string ? egl.query_string(display, kVendor) : nullptr;
        (void)vendor;
        why.clear();
        return made;
      }
      why = "the GL context lacks buffer functions";
      return nullptr;  // the destructor of `made` releases the context
    }
    if (context) egl.destroy_context(display, context);
    egl.terminate(display);
  }
  dlclose(library);
  return nullptr;
}

HeadlessGl::~HeadlessGl() {
  if (!library_) return;
  auto make_current = reinterpret_cast<EGLBoolean (*)(EGLDisplay, void*, void*, EGLContext)>(
      dlsym(library_, "eglMakeCurrent"));
  auto destroy_context =
      reinterpret_cast<EGLBoolean (*)(EGLDisplay, EGLContext)>(dlsym(library_, "eglDestroyContext"));
  auto terminate = reinterpret_cast<EGLBoolean (*)(EGLDisplay)>(dlsym(library_, "eglTerminate"));
  if (make_current) make_current(display_, nullptr, nullptr, nullptr);
  if (destroy_context) destroy_context(display_, context_);
  if (terminate) terminate(display_);
  dlclose(library_);
}

std::string HeadlessGl::renderer() const {
  const unsigned char* text = gl_.get_string(kGlRenderer);
  return text ? reinterpret_cast<const char*>(text) : "unknown";
}

}  // namespace ringviz::test
