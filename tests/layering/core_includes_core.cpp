// Must compile: the control case, so that the refusals above are refusals of the layer and
// not a broken compiler command.
#include "core/model/layout.h"
