#pragma once
// A folder with no line in LAYER_ORDER must be reported.
#include "core/model/config.h"
