#pragma once
#include <filesystem>
#include <string>

namespace ringviz::gui {

// Why the file ffmpeg wrote is not a whole video, or "" when it is. A structural check, no
// decoding: an MP4 is a chain of boxes that ends exactly at the end of the file and holds an
// ftyp and a moov (the index, written last); a GIF starts with GIF87a or GIF89a and ends with
// its trailer byte 0x3B.
std::string incomplete_mp4_problem(const std::filesystem::path& video);
std::string incomplete_gif_problem(const std::filesystem::path& video);

// Why ffprobe cannot read `video`, or "" when it can, or when there is no ffprobe next to
// `ffmpeg` (the structural check above is then all there is).
std::string ffprobe_problem(const std::filesystem::path& ffmpeg, const std::filesystem::path& video);

// True when the file system holding `path` has (almost) no space left: the likely reason a
// write there came out short.
bool disk_is_full(const std::filesystem::path& path);

}  // namespace ringviz::gui
