#pragma once
#include <filesystem>
#include <string>

namespace ringviz::gui {

// `ringviz record --dump-layout DIR/`: one layout file per recorded frame, named as the PNG
// frames are (core/output/frame_files.h). Like the PNG frames, the files go into a hidden
// temporary folder next to DIR, each written whole (temporary file, then rename), and the
// folder takes DIR's name only in finish(): an interrupted or failed recording leaves no half
// set of layouts, and an earlier set stays until the new one is complete.
class LayoutFrameFolder {
 public:
  LayoutFrameFolder() = default;
  ~LayoutFrameFolder();  // abandons the folder unless finish() succeeded
  LayoutFrameFolder(const LayoutFrameFolder&) = delete;
  LayoutFrameFolder& operator=(const LayoutFrameFolder&) = delete;

  // False with `error` set when the temporary folder cannot be made. `folder` was checked
  // (check_layout_output) before any frame was drawn.
  bool open(const std::filesystem::path& folder, std::string& error);
  bool is_open() const { return !temporary_.empty(); }
  // One frame's layout under `name`; false with `error` naming the file in DIR.
  bool write(const std::string& name, const std::string& json, std::string& error);
  // Replaces DIR (which holds only layouts of an earlier recording) with the new folder.
  bool finish(std::string& error);
  void abandon();

 private:
  std::filesystem::path target_;
  std::filesystem::path temporary_;
  bool done_ = false;
};

}  // namespace ringviz::gui
