// The UI languages: the Chinese strings are complete and printf-compatible with the English
// ones, and the Chinese font atlas has a glyph for every character in use.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <ios>
#include <string>
#include <vector>

#include <unistd.h>

#include <imgui.h>

#include "app/gui/runtime/gui_app.h"
#include "app/gui/teaching/presentation_mode.h"
#include "app/gui/text/op_label.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/font_loader.h"
#include "app/gui/text/glyph_audit.h"
#include "app/gui/text/strings.h"
#include "app/gui/text/traffic_formula.h"
#include "core/algorithms/registry.h"
#include "core/teaching/lesson.h"
#include "core/training/memory_model.h"
#include "core/training/training_words.h"

using namespace ringviz;
using namespace ringviz::gui;

namespace {

constexpr std::size_t kFields = sizeof(UiStrings) / sizeof(const char*);

const char* field(const UiStrings& strings, std::size_t i) {
  return reinterpret_cast<const char* const*>(&strings)[i];
}

// The printf conversions of a format, in order ("%d%s%lld"); "%%" is not a conversion.
std::string conversions(const char* text) {
  std::string out;
  for (const char* p = text; *p; ++p) {
    if (*p != '%') continue;
    if (p[1] == '%') {
      ++p;
      continue;
    }
    std::string spec = "%";
    while (*++p && !std::strchr("diouxXeEfFgGaAcspn", *p)) spec += *p;
    if (*p) spec += *p;
    out += spec;
    if (!*p) break;
  }
  return out;
}

// Sets (or restores) an environment variable for the duration of a scope.
struct ScopedEnv {
  std::string name;
  std::string old;
  bool had = false;
  ScopedEnv(const char* n, const char* value) : name(n) {
    if (const char* v = std::getenv(n)) {
      had = true;
      old = v;
    }
    setenv(n, value, 1);
  }
  ~ScopedEnv() {
    if (had) setenv(name.c_str(), old.c_str(), 1);
    else unsetenv(name.c_str());
  }
};

// An ImGui context with only a font atlas: no renderer, no frame.
struct AtlasContext {
  AtlasContext() { ImGui::CreateContext(); }
  ~AtlasContext() { ImGui::DestroyContext(); }
  ImFontAtlas& atlas() { return *ImGui::GetIO().Fonts; }
};

}  // namespace

TEST_CASE("every UI string exists in English and in Chinese") {
  for (Language language : {Language::en, Language::zh}) {
    CAPTURE(language_name(language));
    // The Chinese instance itself, not ui_strings_for(), which fills gaps with English.
    const UiStrings& strings = language == Language::zh ? kUiStringsZh : ui_strings_for(Language::en);
    for (std::size_t i = 0; i < kFields; ++i) {
      CAPTURE(i);
      REQUIRE(field(strings, i) != nullptr);
      CHECK(field(strings, i)[0] != '\0');
    }
  }
}

TEST_CASE("Chinese strings take the same printf arguments in the same order as English") {
  const UiStrings& en = ui_strings_for(Language::en);
  const UiStrings& zh = kUiStringsZh;
  for (std::size_t i = 0; i < kFields; ++i) {
    CAPTURE(i);
    if (field(zh, i) == nullptr) continue;  // reported by the test above
    CAPTURE(field(en, i));
    CAPTURE(field(zh, i));
    CHECK(conversions(field(zh, i)) == conversions(field(en, i)));
    // ImGui IDs ("label##id") must not change with the language.
    const char* en_id = std::strstr(field(en, i), "##");
    const char* zh_id = std::strstr(field(zh, i), "##");
    CHECK(std::string(en_id ? en_id : "") == std::string(zh_id ? zh_id : ""));
    // Help rows are "key<TAB>meaning" in both languages.
    CHECK((std::strchr(field(zh, i), '\t') == nullptr) == (std::strchr(field(en, i), '\t') == nullptr));
  }
}

TEST_CASE("the Chinese strings are Chinese") {
  const UiStrings& zh = ui_strings_for(Language::zh);
  int with_chinese = 0;
  for (std::size_t i = 0; i < kFields; ++i)
    for (char32_t point : non_ascii_code_points(field(zh, i) ? field(zh, i) : ""))
      if (point >= 0x4E00 && point <= 0x9FFF) {
        ++with_chinese;
        break;
      }
  // Some entries are names that stay as they are (AllGather, seed, "GPU %d", formulas).
  CHECK(with_chinese >= static_cast<int>(kFields) * 3 / 4);
}

TEST_CASE("code points are decoded from UTF-8, without ASCII and repeats") {
  CHECK(non_ascii_code_points("abc").empty());
  CHECK(non_ascii_code_points("中文中 x") == std::vector<char32_t>{0x4E2D, 0x6587});
  CHECK(non_ascii_code_points("\xE4\xB8") == std::vector<char32_t>{0xFFFD});  // cut short
}

TEST_CASE("the glyph text covers every Chinese UI string and the lessons' Chinese captions") {
  const std::vector<char32_t> covered = non_ascii_code_points(chinese_glyph_text());
  auto has = [&](char32_t c) { return std::binary_search(covered.begin(), covered.end(), c); };
  const UiStrings& zh = ui_strings_for(Language::zh);
  for (std::size_t i = 0; i < kFields; ++i)
    for (char32_t c : non_ascii_code_points(field(zh, i))) CHECK(has(c));
  // A few hundred characters, not a whole CJK block.
  CHECK(covered.size() > 200);
  CHECK(covered.size() < 3000);
  SUBCASE("text registered later is covered by the next build") {
    const auto generation = glyph_text_generation();
    register_glyph_text("龘");
    CHECK(glyph_text_generation() == generation + 1);
    CHECK(non_ascii_code_points(chinese_glyph_text()).size() == covered.size() + 1);
    register_glyph_text("龘");  // nothing new
    CHECK(glyph_text_generation() == generation + 1);
  }
}

TEST_CASE("the Chinese atlas has a real glyph for every character of every Chinese string") {
  std::string missing;
  if (!chinese_font_data(missing)) {
    MESSAGE("skipped: no Chinese font at " << missing << " (install fonts-wqy-microhei)");
    return;
  }
  AtlasContext context;
  for (float scale : {1.0f, 2.0f, 3.0f}) {
    CAPTURE(scale);
    std::string error;
    REQUIRE(build_font_atlas(context.atlas(), scale, Language::zh, error));
    REQUIRE(context.atlas().Fonts.Size == 1);  // one font: Latin with Chinese merged in
    const ImFont& font = *context.atlas().Fonts[0];
    int without_glyph = 0;
    for (char32_t c : non_ascii_code_points(chinese_glyph_text()))
      if (c <= 0xFFFF && font.FindGlyphNoFallback(static_cast<ImWchar>(c)) == nullptr) {
        ++without_glyph;
        MESSAGE("no glyph for U+" << std::hex << static_cast<unsigned>(c));
      }
    CHECK(without_glyph == 0);
    for (char c = ' '; c <= '~'; ++c) CHECK(font.FindGlyphNoFallback(static_cast<ImWchar>(c)) != nullptr);
    // Only the characters in use: the texture stays small even at 3x.
    CHECK(context.atlas().TexWidth * context.atlas().TexHeight <= 2048 * 2048);
  }
}

TEST_CASE("the English atlas can still name the Chinese language in the language menu") {
  std::string missing;
  if (!chinese_font_data(missing)) return;
  AtlasContext context;
  std::string error;
  REQUIRE(build_font_atlas(context.atlas(), 1.0f, Language::en, error));
  const ImFont& font = *context.atlas().Fonts[0];
  for (char32_t c : non_ascii_code_points(language_display_name(Language::zh)))
    CHECK(font.FindGlyphNoFallback(static_cast<ImWchar>(c)) != nullptr);
}

TEST_CASE("without the Chinese font, a Chinese atlas is refused with the path and Latin still builds") {
  ScopedEnv font(kChineseFontEnv, "/nonexistent/ringviz-test/wqy-microhei.ttc");
  CHECK(chinese_font_path() == "/nonexistent/ringviz-test/wqy-microhei.ttc");
  std::string error;
  CHECK(chinese_font_data(error) == nullptr);
  CHECK(error == "/nonexistent/ringviz-test/wqy-microhei.ttc");
  AtlasContext context;
  CHECK_FALSE(build_font_atlas(context.atlas(), 1.0f, Language::zh, error));
  REQUIRE(context.atlas().Fonts.Size == 1);
  CHECK(context.atlas().Fonts[0]->FindGlyphNoFallback('A') != nullptr);
  CHECK(build_font_atlas(context.atlas(), 1.0f, Language::en, error));
}

TEST_CASE("the unfinished results and the transfers' kind are named after the reduction, in English and Chinese") {
  const Language en = Language::en;
  const Language zh = Language::zh;
  CHECK(std::string(partial_result(en, ReduceOp::sum)) == "partial sum");
  CHECK(std::string(partial_result(en, ReduceOp::max, true)) == "running maxima");
  CHECK(std::string(partial_result(en, ReduceOp::prod)) == "partial product");
  CHECK(std::string(partial_result(en, ReduceOp::avg)) == "partial sum");  // avg adds until the end
  CHECK(std::string(ui_strings_for(en).reduction_kind[static_cast<int>(ReduceOp::min)]) == "reduce min");
  CHECK(std::string(ui_strings_for(en).reduction_explained[static_cast<int>(ReduceOp::min)]).find("min(a0,b0)") !=
        std::string::npos);
  CHECK(std::string(partial_result(zh, ReduceOp::sum)) == "部分和");
  CHECK(std::string(partial_result(zh, ReduceOp::min)) == "当前最小值");
  CHECK(std::string(ui_strings_for(zh).reduction_explained[static_cast<int>(ReduceOp::max)]).find("max(a0,b0)") !=
        std::string::npos);
}

TEST_CASE("the traffic panel's subject is the algorithm and operation that run, not always the ring's AllReduce") {
  const Language en = Language::en;
  CHECK(algorithm_op_label(en, Algorithm::ring, Op::allreduce) == "Ring AllReduce");
  CHECK(algorithm_op_label(en, Algorithm::ring, Op::allgather) == "Ring AllGather");
  CHECK(algorithm_op_label(en, Algorithm::tree, Op::allreduce) == "tree AllReduce");
  CHECK(traffic_formula(en, Algorithm::ring, Op::allreduce, 4, 64).formula ==
        "Ring AllReduce sends, per GPU:  2(N-1)/N x M");
  CHECK(traffic_formula(en, Algorithm::ring, Op::reducescatter, 4, 64).formula ==
        "Ring ReduceScatter sends, per GPU:  (N-1)/N x M");
  CHECK(algorithm_op_label(Language::zh, Algorithm::ring, Op::allreduce) == "环形 AllReduce");
}

namespace {

// Every string the GUI can show in Chinese: both UiStrings instances (Chinese screens show
// English names), every lesson's texts in both languages, core's phrases, the conventions.
std::vector<std::string> every_shown_string() {
  std::vector<std::string> texts;
  for (const UiStrings* strings : {&kUiStringsZh, &ui_strings_for(Language::en)})
    for (std::size_t i = 0; i < kFields; ++i)
      if (field(*strings, i)) texts.emplace_back(field(*strings, i));
  std::error_code error;
  const auto folder = find_lesson_folder(std::filesystem::read_symlink("/proc/self/exe", error));
  REQUIRE(folder);
  const auto files = list_lesson_files(*folder);
  CHECK(files.size() >= 10);
  for (const auto& file : files) {
    const Lesson lesson = load_lesson_file(file);
    for (Language language : {Language::en, Language::zh}) {
      texts.push_back(lesson.title.in(language));
      texts.push_back(lesson.summary.in(language));
      for (const LessonScene& scene : lesson.scenes) {
        texts.push_back(scene.title.in(language));
        for (const LessonStep& step : scene.steps) texts.push_back(step.caption.in(language));
      }
    }
  }
  for (Language language : {Language::en, Language::zh}) {
    for (int i = 0; i <= static_cast<int>(Phrase::gpus_one); ++i)
      texts.emplace_back(phrase(static_cast<Phrase>(i), language));
    for (MemoryConvention convention : kAllConventions)
      texts.emplace_back(convention_assumptions(convention, language));
  }
  return texts;
}

}  // namespace

TEST_CASE("every string the GUI can show in Chinese renders without the missing-glyph character") {
  std::string missing;
  if (!chinese_font_data(missing)) {
    MESSAGE("skipped: no Chinese font at " << missing << " (install fonts-wqy-microhei)");
    return;
  }
  AtlasContext context;
  std::string error;
  REQUIRE(build_font_atlas(context.atlas(), 1.0f, Language::zh, error));
  const ImFont& font = *context.atlas().Fonts[0];
  // The fallback is U+FFFD, not "?", so a drawn fallback can be told from a real question mark.
  REQUIRE(font.FallbackChar == static_cast<ImWchar>(kReplacementCharacter));
  const std::vector<std::string> texts = every_shown_string();
  CHECK(texts.size() > 500);
  for (const std::string& text : texts) {
    CAPTURE(text);
    for (char32_t point : missing_code_points(font, text)) FAIL_CHECK("no glyph for " << describe_code_point(point));
  }
  // Draw them all in one ImGui frame (no renderer needed for the draw data) and count the
  // fallback glyphs in what would be sent to the GPU.
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(1600, 900);
  io.DeltaTime = 1.0f / 60;
  unsigned char* pixels = nullptr;
  int width = 0, height = 0;
  context.atlas().GetTexDataAsRGBA32(&pixels, &width, &height);
  // A few strings per frame: one window's draw list holds at most 65536 vertices.
  int fallbacks = 0;
  for (std::size_t first = 0; first < texts.size(); first += 40) {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(1600, 900));
    ImGui::Begin("all strings");
    // Wrapped, and each on the window's first line, so that ImGui's clipping skips no glyph.
    ImGui::PushTextWrapPos(1500);
    for (std::size_t i = first; i < std::min(texts.size(), first + 40); ++i) {
      ImGui::SetCursorPos(ImVec2(8, 30));
      ImGui::TextUnformatted(texts[i].c_str());
    }
    ImGui::PopTextWrapPos();
    ImGui::End();
    ImGui::Render();
    fallbacks += count_fallback_glyphs(*ImGui::GetDrawData());
  }
  CHECK(fallbacks == 0);

  SUBCASE("a character outside the atlas is found by both checks") {
    // Not 龘: the test above registers it, so the atlas has it.
    CHECK(missing_code_points(font, "A齉") == std::vector<char32_t>{0x9F49});
    ImGui::NewFrame();
    // A window with its size given: a new auto-sized window is hidden in its first frame.
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(400, 300));
    ImGui::Begin("missing");
    ImGui::TextUnformatted("齉?");
    ImGui::End();
    ImGui::Render();
    CHECK(count_fallback_glyphs(*ImGui::GetDrawData()) == 1);  // the "?" is a real glyph
  }
}

TEST_CASE("a Chinese font fetched on demand: English while it loads, Chinese when it arrives, a notice if it fails") {
  // The browser's way (app/web/browser_page.cpp): the font is not there until fetched.
  const auto dir = std::filesystem::temp_directory_path() / ("ringviz-font-fetch-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "wqy-microhei.ttc").string();
  ScopedEnv font(kChineseFontEnv, path.c_str());
  GuiApp app(ShowRequest{}, BackendChoice::cpu, Preferences{}, Host{});
  const auto noticed = [&app](const char* words) {
    return std::count_if(app.notices().begin(), app.notices().end(),
                         [words](const std::string& notice) { return notice.find(words) != std::string::npos; });
  };

  // The desktop has no fetcher: a missing font is a notice at once.
  ClassroomMode desktop(ClassroomOptions{});
  CHECK_FALSE(desktop.set_language(app, Language::zh));
  CHECK_FALSE(desktop.waiting_for_font());
  CHECK(noticed("Chinese font not found") == 1);

  ClassroomMode classroom(ClassroomOptions{});
  int fetches = 0;
  classroom.fetch_chinese_font = [&fetches] {
    ++fetches;
    return true;
  };
  classroom.start(app);
  CHECK(fetches == 0);  // English needs no font
  CHECK_FALSE(classroom.set_language(app, Language::zh));
  CHECK(fetches == 1);
  CHECK(classroom.waiting_for_font());
  CHECK(app.language() == Language::en);  // until the font is here
  const std::size_t notices_before = app.notices().size();
  CHECK_FALSE(classroom.set_language(app, Language::zh));  // asked again while it loads
  CHECK(classroom.waiting_for_font());
  CHECK(app.notices().size() == notices_before);  // loading is the host's to show, not a notice

  classroom.font_fetched(app, false, "HTTP 404");
  CHECK_FALSE(classroom.waiting_for_font());
  CHECK(app.language() == Language::en);
  CHECK(app.preferences().language == Language::en);
  CHECK(noticed("Chinese font not loaded (HTTP 404); L tries again") == 1);
  classroom.font_fetched(app, true, "");  // nothing was waiting: nothing changes
  CHECK(app.language() == Language::en);

  CHECK_FALSE(classroom.set_language(app, Language::zh));  // tried again: fetched again
  CHECK(fetches == 3);
  std::error_code no_font;
  if (!std::filesystem::copy_file(kChineseFontPath, path, no_font)) {
    std::filesystem::remove_all(dir);
    MESSAGE("fonts-wqy-microhei is not installed: the arrival is not checked");
    return;
  }
  classroom.font_fetched(app, true, "");  // the host wrote the file, then says so
  CHECK(app.language() == Language::zh);
  CHECK(app.preferences().language == Language::zh);  // the user chose it
  CHECK_FALSE(classroom.waiting_for_font());
  std::filesystem::remove_all(dir);
}
