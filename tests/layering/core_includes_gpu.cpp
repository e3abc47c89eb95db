// Must not compile: core may not name a header of the gpu layer.
#include "gpu/backend/cuda_backend.h"
