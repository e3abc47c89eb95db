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
#include "core/algorithms/registry.h"
#include "core/algorithms/unit_words.h"
#include "core/teaching/lesson.h"
#include "core/topology/link_model.h"
#include "core/topology/topology.h"
#include "core/training/memory_model.h"
#include "core/training/training_words.h"

namespace ringviz::gui {

namespace {

// Every phrase of core's table in `language` (the phrases run from title to gpus_one).
std::string phrase_text(Language language) {
  std::string text;
  for (int i = 0; i <= static_cast<int>(Phrase::gpus_one); ++i) text += phrase(static_cast<Phrase>(i), language);
  return text;
}

// Chinese glyphs are drawn a little larger than the 13-pixel Latin design: at the same size
// their strokes run together. The offset keeps them on the Latin baseline.
constexpr float kChineseSizeRatio = 1.08f;

std::string g_registered_text;
std::set<char32_t> g_registered_points;
std::uint64_t g_generation = 0;

// The text of every lesson in the lesson folder (titles, summaries, captions) in `language`.
std::string lesson_text(Language language) {
  std::string text;
  std::error_code error;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return text;
  const auto folder = find_lesson_folder(executable);
  if (!folder) return text;
  for (const auto& file : list_lesson_files(*folder)) {
    try {
      const Lesson lesson = load_lesson_file(file);
      text += lesson.title.in(language);
      text += lesson.summary.in(language);
      for (const LessonScene& scene : lesson.scenes) {
        text += scene.title.in(language);
        for (const LessonStep& step : scene.steps) text += step.caption.in(language);
      }
    } catch (...) {
      // A broken lesson is reported when someone opens it; here it only lacks glyphs.
    }
  }
  return text;
}

// Every field of a UiStrings instance, concatenated. UiStrings is nothing but const char*
// fields (single ones and arrays), so it can be walked as an array.
std::string ui_strings_text(const UiStrings& strings) {
  static_assert(sizeof(UiStrings) % sizeof(const char*) == 0);
  const auto* fields = reinterpret_cast<const char* const*>(&strings);
  std::string text;
  for (std::size_t i = 0; i < sizeof(UiStrings) / sizeof(const char*); ++i)
    if (fields[i]) text += fields[i];
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

std::string glyph_text(Language language) {
  static const std::string lessons[2] = {lesson_text(Language::en), lesson_text(Language::zh)};
  std::string text = ui_strings_text(ui_strings_for(Language::en));
  text += lessons[0];
  text += phrase_text(Language::en);
  if (language == Language::zh) {
    // Chinese screens also show English: names, and anything not translated yet.
    text += ui_strings_text(kUiStringsZh);
    text += lessons[1];
    text += phrase_text(Language::zh);
  }
  // Core's texts that the GUI shows in the UI language: first every algorithm's own words.
  const auto add_words = [&](const Words& words) {
    text += words.en;
    if (language == Language::zh) text += words.zh;
  };
  for (const AlgorithmUnit* unit : algorithm_units()) {
    for (const Words& words : {unit->title, unit->menu_name, unit->label, unit->cost_note}) add_words(words);
    for (const Words& words : unit->words) add_words(words);
  }
  for (const Words& words : shared_unit_words()) add_words(words);
  for (MemoryConvention convention : kAllConventions) text += convention_assumptions(convention, language);
  // The Compare tab's machine labels and link notes (only digits change with the size).
  for (const char* spec : {"nvswitch:1", "nvswitch:8", "ring:8", "pcie:8", "nodes:2x4", "nodes-rail:2x4"}) {
    const Topology topology = topology_preset(spec);
    text += topology.label;
    if (language == Language::zh) text += topology.label_zh;
  }
  for (const LinkModel& link : link_presets()) {
    text += link.note;
    if (language == Language::zh) text += link_note_zh(link.key);
  }
  text += language_display_name(Language::en);
  text += language_display_name(Language::zh);  // the language menu names it in both
  text += g_registered_text;
  return text;
}

std::string chinese_glyph_text() { return glyph_text(Language::zh); }

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
  // Every character the language's screens can show, and U+FFFD: with it in the atlas, ImGui
  // draws a missing character as that glyph instead of "?", so glyph_audit.h can count them.
  const std::string text = glyph_text(language);
  for (char32_t point : non_ascii_code_points(text))
    if (point <= 0xFFFF && point > 0xFF) builder.AddChar(static_cast<ImWchar>(point));
  builder.AddChar(static_cast<ImWchar>(kReplacementCharacter));
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
