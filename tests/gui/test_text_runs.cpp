// The text runs read back from a frame's draw data (app/gui/inspect/text_runs.h): known strings
// drawn in a headless ImGui frame (a font atlas, no renderer) come back with their exact
// rectangles, their spaces, one run per line, and "clipped" when something cut them.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>  // ImGui::RenderTextEllipsis, as tabs and table headers use it

#include "app/gui/inspect/text_runs.h"
#include "app/gui/text/font_loader.h"
#include "core/model/text.h"

using namespace ringviz;
using namespace ringviz::gui;

namespace {

constexpr const char* kChineseSample = "环形通信 ring";

// An ImGui context with the UI's font atlas (Chinese merged in when the font is installed) and
// a second, larger font like the lesson captions'; frames are built on the CPU only.
struct HeadlessFrames {
  bool chinese = false;
  std::string chinese_problem;
  ImFont* ui = nullptr;
  ImFont* large = nullptr;

  HeadlessFrames() {
    ImGui::CreateContext();
    register_glyph_text(kChineseSample);
    ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
    chinese = build_font_atlas(atlas, 1.0f, Language::zh, chinese_problem);
    if (!chinese) build_font_atlas(atlas, 1.0f, Language::en, chinese_problem);
    ImFontConfig caption;
    caption.SizePixels = 26.0f;
    large = atlas.AddFontDefault(&caption);
    atlas.Build();
    ui = atlas.Fonts[0];
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(800, 600);
    io.DeltaTime = 1.0f / 60.0f;
  }
  ~HeadlessFrames() { ImGui::DestroyContext(); }

  std::vector<TextRun> runs_of(const std::function<void(ImDrawList&)>& draw) {
    ImGui::NewFrame();
    draw(*ImGui::GetForegroundDrawList());
    ImGui::Render();
    return find_text_runs(*ImGui::GetDrawData(), *ImGui::GetIO().Fonts);
  }
};

// Where ImFont::RenderText puts the glyphs of one line of `text` drawn at `pos`: the union of
// their quads, from the font's own metrics.
Rect expected_rect(const ImFont& font, float size, ImVec2 pos, const std::string& text) {
  const float scale = size / font.FontSize;
  float x = std::floor(pos.x);
  const float y = std::floor(pos.y);
  bool any = false;
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  for (std::size_t at = 0; at < text.size();) {
    const ImFontGlyph* glyph = font.FindGlyph(static_cast<ImWchar>(next_code_point(text, at)));
    if (glyph->Visible) {
      const float gx0 = x + glyph->X0 * scale, gy0 = y + glyph->Y0 * scale;
      const float gx1 = x + glyph->X1 * scale, gy1 = y + glyph->Y1 * scale;
      x0 = any ? std::min(x0, gx0) : gx0;
      y0 = any ? std::min(y0, gy0) : gy0;
      x1 = any ? std::max(x1, gx1) : gx1;
      y1 = any ? std::max(y1, gy1) : gy1;
      any = true;
    }
    x += glyph->AdvanceX * scale;
  }
  return {x0, y0, x1 - x0, y1 - y0};
}

void check_rect(const Rect& got, const Rect& want) {
  CHECK(got.x == doctest::Approx(want.x).epsilon(1e-4));
  CHECK(got.y == doctest::Approx(want.y).epsilon(1e-4));
  CHECK(got.w == doctest::Approx(want.w).epsilon(1e-4));
  CHECK(got.h == doctest::Approx(want.h).epsilon(1e-4));
}

std::vector<std::string> strings_of(const std::vector<TextRun>& runs) {
  std::vector<std::string> strings;
  for (const TextRun& run : runs) strings.push_back(run.text);
  return strings;
}

const TextRun* run_with(const std::vector<TextRun>& runs, const std::string& text) {
  for (const TextRun& run : runs)
    if (run.text == text) return &run;
  return nullptr;
}

}  // namespace

TEST_CASE("text runs: words separated by spaces come back as one run with its exact rectangle") {
  HeadlessFrames frames;
  const ImVec2 at(20.3f, 40.0f);
  const std::vector<TextRun> runs = frames.runs_of([&](ImDrawList& dl) {
    dl.AddRectFilled(ImVec2(10, 30), ImVec2(300, 80), IM_COL32(40, 40, 40, 255));  // a shape underneath
    dl.AddText(at, IM_COL32_WHITE, "Hello ring  world");
  });
  CAPTURE(strings_of(runs).size());
  // One space's advance joins words; two spaces' is a gap between two texts.
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].text == "Hello ring");
  CHECK(runs[1].text == "world");
  check_rect(runs[0].rect, expected_rect(*frames.ui, frames.ui->FontSize, at, "Hello ring"));
  CHECK(runs[0].pixels == doctest::Approx(13.0f));
  CHECK_FALSE(runs[0].clipped);
  CHECK(runs[0].font == frames.ui);
}

TEST_CASE("text runs: wrapped text is one run per line, each where its line was drawn") {
  HeadlessFrames frames;
  ImFont& font = *frames.ui;
  const ImVec2 at(50, 100);
  const float wrap = font.CalcTextSizeA(font.FontSize, 1000, 0, "alpha beta").x + 2.0f;
  const std::vector<TextRun> runs = frames.runs_of([&](ImDrawList& dl) {
    dl.AddText(&font, font.FontSize, at, IM_COL32_WHITE, "alpha beta gamma", nullptr, wrap);
  });
  REQUIRE(strings_of(runs) == std::vector<std::string>{"alpha beta", "gamma"});
  check_rect(runs[0].rect, expected_rect(font, font.FontSize, at, "alpha beta"));
  check_rect(runs[1].rect, expected_rect(font, font.FontSize, ImVec2(at.x, at.y + font.FontSize), "gamma"));
}

TEST_CASE("text runs: ImGui's widgets, other fonts and scaled text are read back") {
  HeadlessFrames frames;
  const std::vector<TextRun> runs = frames.runs_of([&](ImDrawList& dl) {
    ImGui::SetNextWindowPos(ImVec2(400, 300));
    ImGui::SetNextWindowSize(ImVec2(300, 200));
    ImGui::Begin("##window", nullptr, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoDecoration);
    ImGui::TextUnformatted("Widget text");
    ImGui::Button("Press me");
    ImGui::End();
    dl.AddText(frames.large, frames.large->FontSize, ImVec2(10, 10), IM_COL32_WHITE, "Caption line");
    dl.AddText(frames.ui, frames.ui->FontSize * 2, ImVec2(10, 200), IM_COL32_WHITE, "Twice");
  });
  INFO("runs: " << [&] {
    std::string all;
    for (const std::string& s : strings_of(runs)) all += "[" + s + "]";
    return all;
  }());
  for (const char* text : {"Widget text", "Press me", "Caption line", "Twice"}) {
    CAPTURE(text);
    const TextRun* run = run_with(runs, text);
    REQUIRE(run != nullptr);
    CHECK_FALSE(run->clipped);
  }
  const TextRun& caption = *run_with(runs, "Caption line");
  CHECK(caption.font == frames.large);
  CHECK(caption.pixels == doctest::Approx(26.0f));
  check_rect(caption.rect, expected_rect(*frames.large, 26.0f, ImVec2(10, 10), "Caption line"));
  const TextRun& twice = *run_with(runs, "Twice");
  CHECK(twice.pixels == doctest::Approx(26.0f));
  check_rect(twice.rect, expected_rect(*frames.ui, 26.0f, ImVec2(10, 200), "Twice"));
  // The widget text lies inside its window.
  const TextRun& widget = *run_with(runs, "Widget text");
  CHECK(widget.rect.x >= 400);
  CHECK(widget.rect.y >= 300);
}

// The x in the middle of the quad of the glyph `index` places into `text` drawn from `x`.
float middle_of_glyph(const ImFont& font, float x, const std::string& text, std::size_t index) {
  for (std::size_t i = 0; i < index; ++i) x += font.FindGlyph(static_cast<ImWchar>(text[i]))->AdvanceX;
  const ImFontGlyph* glyph = font.FindGlyph(static_cast<ImWchar>(text[index]));
  return x + (glyph->X0 + glyph->X1) * 0.5f;
}

TEST_CASE("text runs: text cut by the CPU or reaching past its clip rectangle is clipped") {
  HeadlessFrames frames;
  ImFont& font = *frames.ui;
  // Both edges cut through a glyph: the "t" of "Cut off", the "r" of "Overflowing text".
  const float cut_at = middle_of_glyph(font, 10, "Cut off", 2);
  const float overflow_at = middle_of_glyph(font, 10, "Overflowing text", 3);
  const std::vector<TextRun> runs = frames.runs_of([&](ImDrawList& dl) {
    // The CPU clips glyphs to the rectangle given to AddText: the "t" loses its right half.
    const ImVec4 fine(0, 0, cut_at, 600);
    dl.AddText(&font, font.FontSize, ImVec2(10, 10), IM_COL32_WHITE, "Cut off", nullptr, 0, &fine);
    // A clip rectangle on the draw list only scissors on the GPU: the "r" reaches past it.
    dl.PushClipRect(ImVec2(0, 50), ImVec2(overflow_at, 600));
    dl.AddText(ImVec2(10, 60), IM_COL32_WHITE, "Overflowing text");
    dl.PopClipRect();
    dl.PushClipRect(ImVec2(0, 100), ImVec2(400, 600));
    dl.AddText(ImVec2(10, 110), IM_COL32_WHITE, "Inside");
    dl.PopClipRect();
  });
  // Only the glyphs that were drawn: ImGui leaves out those wholly past the clip rectangle.
  REQUIRE(strings_of(runs) == std::vector<std::string>{"Cut", "Over", "Inside"});
  CHECK(runs[0].clipped);
  CHECK(runs[0].rect.right() == doctest::Approx(cut_at));
  CHECK(runs[1].clipped);
  CHECK(runs[1].rect.right() > overflow_at + 0.5f);
  CHECK_FALSE(runs[2].clipped);
}

TEST_CASE("text runs: text ImGui shortened with its ellipsis reads with \"…\"") {
  HeadlessFrames frames;
  const std::vector<TextRun> runs = frames.runs_of([&](ImDrawList& dl) {
    ImGui::RenderTextEllipsis(&dl, ImVec2(10, 10), ImVec2(60, 30), 60, 60, "Algorithm name", nullptr, nullptr);
  });
  REQUIRE(runs.size() >= 1);
  CHECK(runs[0].text.rfind("Algo", 0) == 0);
  const std::string all = [&] {
    std::string joined;
    for (const TextRun& run : runs) joined += run.text;
    return joined;
  }();
  CHECK(all.find("\u2026") != std::string::npos);
  CHECK(all.find("name") == std::string::npos);
}

TEST_CASE("text runs: text wholly under an opaque rectangle drawn after it is hidden") {
  HeadlessFrames frames;
  const std::vector<TextRun> runs = frames.runs_of([&](ImDrawList& dl) {
    dl.AddText(ImVec2(10, 10), IM_COL32_WHITE, "Under a card");
    dl.AddText(ImVec2(10, 40), IM_COL32_WHITE, "Under glass");
    dl.AddText(ImVec2(10, 70), IM_COL32_WHITE, "Half covered");
    dl.AddRectFilled(ImVec2(0, 0), ImVec2(400, 30), IM_COL32(20, 20, 20, 255));    // opaque
    dl.AddRectFilled(ImVec2(0, 35), ImVec2(400, 60), IM_COL32(20, 20, 20, 128));   // see-through
    dl.AddRectFilled(ImVec2(0, 65), ImVec2(40, 90), IM_COL32(20, 20, 20, 255));    // part of the text
    dl.AddText(ImVec2(10, 10), IM_COL32_WHITE, "On the card");
  });
  REQUIRE(strings_of(runs) == std::vector<std::string>{"Under a card", "Under glass", "Half covered", "On the card"});
  CHECK(runs[0].hidden);
  CHECK_FALSE(runs[1].hidden);
  CHECK_FALSE(runs[2].hidden);
  CHECK_FALSE(runs[3].hidden);
}

TEST_CASE("text runs: Chinese glyphs merged into the UI font read back as their characters") {
  HeadlessFrames frames;
  if (!frames.chinese) {
    MESSAGE("skipped: the Chinese font is not installed here (" << frames.chinese_problem << ")");
    return;
  }
  const ImVec2 at(30, 30);
  const std::vector<TextRun> runs =
      frames.runs_of([&](ImDrawList& dl) { dl.AddText(at, IM_COL32_WHITE, kChineseSample); });
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].text == kChineseSample);
  CHECK_FALSE(runs[0].clipped);
  check_rect(runs[0].rect, expected_rect(*frames.ui, frames.ui->FontSize, at, kChineseSample));
}
