#include "core/output/frame_files.h"

#include <cstdio>
#include <filesystem>

#include "core/output/output_path.h"

namespace ringviz {

namespace {

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace

std::string frame_file_name(const std::string& prefix, long long index, std::string_view extension) {
  char number[32];
  if (prefix.empty()) std::snprintf(number, sizeof number, "frame-%06lld", index);
  else std::snprintf(number, sizeof number, "_%05lld", index + 1);
  return prefix + number + std::string(extension);
}

bool is_frame_file(const std::string& name, std::string_view extension) {
  if (!ends_with(name, extension)) return false;
  if (name.rfind("frame-", 0) == 0) return true;
  const std::size_t underscore = name.rfind('_');
  if (underscore == std::string::npos) return false;
  const std::string digits = name.substr(underscore + 1, name.size() - extension.size() - underscore - 1);
  return digits.size() == 5 && digits.find_first_not_of("0123456789") == std::string::npos;
}

bool is_png_frame_file(const std::string& name) { return is_frame_file(name, ".png"); }
bool is_json_frame_file(const std::string& name) { return is_frame_file(name, ".json"); }

bool names_folder(const std::string& path) {
  std::error_code ec;
  return ends_with(path, "/") || std::filesystem::is_directory(path, ec);
}

void check_layout_output(const std::string& path, const std::string& flag) {
  if (names_folder(path)) check_output_folder(path, flag, is_json_frame_file);
  else check_output_file(path, flag, ".json");
}

}  // namespace ringviz
