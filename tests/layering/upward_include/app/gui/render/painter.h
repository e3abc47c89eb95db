#pragma once
// A probe tree for check-structure.py: render reaching up into runtime must be reported.
#include "app/gui/runtime/app_state.h"
