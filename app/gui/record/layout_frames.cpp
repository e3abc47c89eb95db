#include "app/gui/record/layout_frames.h"

#include "core/output/output_file.h"

namespace ringviz::gui {

namespace fs = std::filesystem;

LayoutFrameFolder::~LayoutFrameFolder() { abandon(); }

bool LayoutFrameFolder::open(const fs::path& folder, std::string& error) {
  target_ = folder.filename().empty() ? folder.parent_path() : folder;  // "layouts/" names "layouts"
  temporary_ = temporary_path_for(target_);
  std::error_code ec;
  fs::remove_all(temporary_, ec);
  if (!fs::create_directory(temporary_, ec)) {
    error = "cannot create " + temporary_.string() + " for --dump-layout: " + ec.message();
    temporary_.clear();
    return false;
  }
  return true;
}

bool LayoutFrameFolder::write(const std::string& name, const std::string& json, std::string& error) {
  if (write_output_file(temporary_ / name, json, error)) return true;
  // The hidden temporary folder means nothing to the user: name the folder they gave.
  const std::string hidden = (temporary_ / name).string();
  const std::size_t at = error.find(hidden);
  if (at != std::string::npos) error.replace(at, hidden.size(), (target_ / name).string());
  return false;
}

bool LayoutFrameFolder::finish(std::string& error) {
  std::error_code ec;
  // check_layout_output made sure an existing folder holds only layout frames.
  if (fs::is_directory(target_, ec)) fs::remove_all(target_, ec);
  fs::rename(temporary_, target_, ec);
  if (ec) {
    error = "cannot move the layouts to " + target_.string() + ": " + ec.message();
    abandon();
    return false;
  }
  done_ = true;
  return true;
}

void LayoutFrameFolder::abandon() {
  if (done_) return;
  done_ = true;
  std::error_code ec;
  if (!temporary_.empty()) fs::remove_all(temporary_, ec);
}

}  // namespace ringviz::gui
