#pragma once
#include <string>
#include <string_view>

// The names of the files a recording writes one per frame (PNG frames, layout dumps), so that
// frame k's picture and its layout carry the same number.

namespace ringviz {

// Frame `index` (from 0) as a file name with `extension` (".png"): frame-000000.png, ... or,
// with a prefix (a transparent sequence, numbered from 1 as compositing tools expect),
// PREFIX_00001.png, ...
std::string frame_file_name(const std::string& prefix, long long index, std::string_view extension);

// Whether `name` is a file frame_file_name() makes with `extension`: the only files an
// output folder may already hold for it to be replaced.
bool is_frame_file(const std::string& name, std::string_view extension);
bool is_png_frame_file(const std::string& name);
bool is_json_frame_file(const std::string& name);

// Whether an output path names a folder: it ends in '/' or is an existing folder.
bool names_folder(const std::string& path);

// A --dump-layout path: a .json file, or a folder for one layout per frame. Throws InputError
// naming `flag` with the fix (check_output_file, check_output_folder).
void check_layout_output(const std::string& path, const std::string& flag);

}  // namespace ringviz
