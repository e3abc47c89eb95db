#pragma once
// How many frames a recording holds: one rule shared by the recorder (app/gui/hosts), the
// lesson's whole length and the subtitles, so that the last cue cannot end a frame before or
// after the last frame of the video.

namespace ringviz {

// Frames a video of `seconds` at `fps` needs so that frame k, showing time k / fps, covers
// [0, seconds): ceil(seconds x fps), at least 1 (a recording always holds a frame). A hair is
// taken off the product so that 10 s at 30 fps is 300 frames, not 301 from rounding.
long long video_frame_count(double seconds, int fps);

}  // namespace ringviz
