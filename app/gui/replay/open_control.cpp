#include "app/gui/replay/open_control.h"

#include <algorithm>

#include <imgui.h>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"
#include "core/teaching/lesson.h"

namespace ringviz::gui {

std::vector<std::filesystem::path> shipped_captures() {
  std::error_code error;
  std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) executable = std::filesystem::current_path(error) / "ringviz";
  std::vector<std::filesystem::path> files;
  for (const std::filesystem::path& lessons : lesson_folder_candidates(executable)) {
    const std::filesystem::path folder = lessons.parent_path() / "captures";
    if (!std::filesystem::is_directory(folder, error)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(folder, error))
      if (entry.path().extension() == ".json") files.push_back(entry.path());
    break;
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::optional<std::string> OpenControl::draw() {
  const UiStrings& t = ui_strings();
  std::optional<std::string> chosen;
  ImGui::TextUnformatted(t.open_title);
  ImGui::PushItemWidth(std::round(ImGui::GetContentRegionAvail().x * 0.7f));
  if (ImGui::InputTextWithHint("##open_path", t.open_path_hint, path_, sizeof path_, ImGuiInputTextFlags_EnterReturnsTrue) &&
      path_[0] != '\0')
    chosen = path_;
  ImGui::PopItemWidth();
  ImGui::SameLine();
  ImGui::BeginDisabled(path_[0] == '\0');
  if (ImGui::Button(t.open_button)) chosen = path_;
  ImGui::EndDisabled();
  if (!shipped_) shipped_ = shipped_captures();
  if (!shipped_->empty()) {
    hint_text(t.open_found);
    for (const std::filesystem::path& file : *shipped_)
      if (ImGui::Selectable(file.filename().string().c_str())) chosen = file.string();
  }
  return chosen;
}

}  // namespace ringviz::gui
