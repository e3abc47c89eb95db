// stb_image_write's implementation, for the PNGs the GUI library can write (a frame, a
// recording's frames): the desktop links Debian's libstb, which has no WebAssembly build.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
