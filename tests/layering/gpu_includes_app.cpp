// Must not compile: gpu may not name a header of the app layer.
#include "app/backend/backend_select.h"
