#include "app/gui/replay/open_control.h"

#include <algorithm>
#include <cmath>

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

std::string fitting_hint(const std::string& hint, float width) {
  if (ImGui::CalcTextSize(hint.c_str()).x <= width) return hint;
  // The example file name without its explanation in brackets (either script's brackets).
  std::size_t cut = std::min(hint.find(" ("), hint.find("\xEF\xBC\x88"));
  const std::string name = hint.substr(0, cut);
  return cut != std::string::npos && ImGui::CalcTextSize(name.c_str()).x <= width ? name : std::string();
}

std::optional<std::string> OpenControl::draw(const UiStrings& t) {
  std::optional<std::string> chosen;
  ImGui::TextUnformatted(t.open_title);
  const float field = std::round(ImGui::GetContentRegionAvail().x * 0.7f);
  ImGui::PushItemWidth(field);
  const std::string hint = fitting_hint(t.open_path_hint, field - 2 * ImGui::GetStyle().FramePadding.x);
  if (ImGui::InputTextWithHint("##open_path", hint.c_str(), path_, sizeof path_, ImGuiInputTextFlags_EnterReturnsTrue) &&
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
