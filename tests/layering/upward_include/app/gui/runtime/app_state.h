#pragma once
// Including downward is allowed; the loop is closed by render/painter.h including this file.
#include "app/gui/render/painter.h"
