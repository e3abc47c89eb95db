#include "app/gui/text/font_loader.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include <imgui.h>

#include "app/gui/text/strings.h"
#include "core/teaching/lesson.h"

namespace ringviz::gui {

namespace {

// Chinese glyphs are drawn a little larger than the 13-pixel Latin design: at the same size
// their strokes run together. The offset keeps them on the Latin baseline.
constexpr float kChineseSizeRatio = 1.08f;

std::string g_registered_text;
std::set<char32_t> g_registered_points;
std::uint64_t g_generation = 0;

// The Chinese text of every lesson in the lesson folder (titles, summaries, captions).
std::string lesson_text() {
  std::string text;
  std::error_code error;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return text;
  const auto folder = find_lesson_folder(executable);
  if (!folder) return text;
  for (const auto& file : list_lesson_files(*folder)) {
    try {
      const Lesson lesson = load_lesson_file(file);
      text += lesson.title.zh;
      text += lesson.summary.zh;
      for (const LessonScene& scene : lesson.scenes) {
        text += scene.title.zh;
        for (const LessonStep& step : scene.steps) text += step.caption.zh;
      }
    } catch (...) {
      // A broken lesson is reported when someone opens it; here it only lacks glyphs.
    }
  }
  return text;
}

}  // namespace

std::string chinese_font_path() {
  if (const char* configured = std::getenv(kChineseFontEnv); configured && *configured) return configured;
  return kChineseFontPath;
}

const std::vector<unsigned char>* chinese_font_data(std::string& error) {
  // One read per path: switching languages back and forth must not touch the disk again.
  static std::map<std::string, std::vector<unsigned char>> loaded;
  const std::string path = chinese_font_path();
  if (auto found = loaded.find(path); found != loaded.end()) return &found->second;
  std::ifstream in(path, std::ios::binary);
  std::vector<unsigned char> bytes;
  if (in) bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (bytes.size() < 12) {
    error = path;
    return nullptr;
  }
  return &loaded.emplace(path, std::move(bytes)).first->second;
}

std::string_view language_display_name(Language language) {
  return language == Language::zh ? "简体中文" : "English";
}

std::string chinese_glyph_text() {
  static const std::string lessons = lesson_text();
  // UiStrings is nothing but const char* fields, so it can be walked as an array.
  static_assert(sizeof(UiStrings) % sizeof(const char*) == 0);
  const auto* fields = reinterpret_cast<const char* const*>(&kUiStringsZh);
  std::string text;
  for (std::size_t i = 0; i < sizeof(UiStrings) / sizeof(const char*); ++i)
    if (fields[i]) text += fields[i];
  text += lessons;
  text += language_display_name(Language::zh);
  text += g_registered_text;
  return text;
}

void register_glyph_text(std::string_view utf8) {
  bool added = false;
  for (char32_t point : non_ascii_code_points(utf8)) added |= g_registered_points.insert(point).second;
  if (!added) return;
  g_registered_text.append(utf8);
  ++g_generation;
}

std::uint64_t glyph_text_generation() { return g_generation; }

std::vector<char32_t> non_ascii_code_points(std::string_view utf8) {
  std::vector<char32_t> points;
  for (std::size_t at = 0; at < utf8.size();) {
    const char32_t point = next_code_point(utf8, at);
    if (point >= 0x80) points.push_back(point);
  }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return points;
}

bool build_font_atlas(ImFontAtlas& atlas, float scale, Language language, std::string& error) {
  atlas.Clear();
  ImFontConfig latin;
  // Whole pixel sizes keep the bitmap-style glyphs on the pixel grid.
  latin.SizePixels = std::round(kBaseFontPixels * scale);
  latin.OversampleH = 1;
  latin.OversampleV = 1;
  latin.PixelSnapH = true;
  atlas.AddFontDefault(&latin);

  // The ranges must outlive Build(); one set, rebuilt with the atlas.
  static ImVector<ImWchar> ranges;
  ImFontGlyphRangesBuilder builder;
  // English needs only the language menu's "简体中文"; Chinese needs every string in use.
  const std::string text = language == Language::zh ? chinese_glyph_text()
                                                     : std::string(language_display_name(Language::zh));
  for (char32_t point : non_ascii_code_points(text))
    if (point <= 0xFFFF && point > 0xFF) builder.AddChar(static_cast<ImWchar>(point));
  ranges.clear();
  builder.BuildRanges(&ranges);

  bool ok = true;
  if (const std::vector<unsigned char>* data = chinese_font_data(error)) {
    ImFontConfig chinese;
    chinese.MergeMode = true;
    chinese.FontDataOwnedByAtlas = false;  // chinese_font_data() keeps the bytes
    chinese.OversampleH = 1;
    chinese.OversampleV = 1;
    chinese.PixelSnapH = true;
    const float pixels = std::round(kBaseFontPixels * scale * kChineseSizeRatio);
    chinese.GlyphOffset = ImVec2(0, std::round(0.05f * pixels));
    atlas.AddFontFromMemoryTTF(const_cast<unsigned char*>(data->data()), static_cast<int>(data->size()), pixels,
                               &chinese, ranges.Data);
  } else {
    ok = language != Language::zh;  // English only misses "简体中文" in the menu
  }
  atlas.Build();
  return ok;
}

}  // namespace ringviz::gui
