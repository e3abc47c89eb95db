#pragma once
#include <string>
#include <string_view>

namespace ringviz {

// Output paths are checked before any work starts, so that a typo costs no rendering
// (docs/architecture.md, "Output files"). Each throws InputError naming `flag` with the fix:
// an empty path, a folder where a file is wanted (or a file where a folder is), a parent
// folder that does not exist or cannot be written, or a name the writer cannot produce.

// A file. `extension` (".png", lower case) is the only kind the writer makes; empty: any.
// An existing device or FIFO (/dev/null) is accepted as it is.
void check_output_file(const std::string& path, const std::string& flag, std::string_view extension = {});

// A folder to be created or replaced; an existing one may hold only files that `replaceable`
// accepts (the frames of an earlier recording), so nothing else is ever deleted.
void check_output_folder(const std::string& path, const std::string& flag, bool (*replaceable)(const std::string& name));

}  // namespace ringviz
