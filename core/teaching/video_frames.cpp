#include "core/teaching/video_frames.h"

#include <algorithm>
#include <cmath>

namespace ringviz {

long long video_frame_count(double seconds, int fps) {
  if (fps <= 0 || !(seconds > 0)) return 1;
  return std::max<long long>(1, static_cast<long long>(std::ceil(seconds * fps - 1e-9)));
}

}  // namespace ringviz
