// Must not compile: core may not name a header of the app layer.
#include "app/gui/runtime/gui_app.h"
