#pragma once
// Whether this build may start threads of its own (docs/architecture.md, "The browser build").
// The desktop may; the page may not (a WebAssembly build with threads would need cross-origin
// isolation headers that a plain static host does not send), so work that the desktop hands to
// a worker runs on the calling thread there.
namespace ringviz::platform {

#ifdef __EMSCRIPTEN__
inline constexpr bool kWorkerThreads = false;
#else
inline constexpr bool kWorkerThreads = true;
#endif

}  // namespace ringviz::platform
