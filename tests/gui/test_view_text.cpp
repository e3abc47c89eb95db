// The training and compare views' text helpers (app/gui/plots/view_text.h, plot_axes.h): lines
// wrapped where a reader expects and drawn with their ink apart (read back from a headless
// ImGui frame, as --dump-layout reads them), labels left out rather than drawn on another, and
// axis labels thinned to what fits.
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/gui/plots/plot_axes.h"
#include "app/gui/plots/view_text.h"
#include "app/gui/inspect/text_runs.h"
#include "app/gui/text/font_loader.h"

using namespace ringviz;
using namespace ringviz::gui;

namespace {

// Chinese with Latin words: a "g" or "y" reaches below the line, and a Chinese glyph starts at
// its very top, so lines one font size apart would touch.
constexpr const char* kChineseParagraph =
    "同一个 MLP（2563 个参数）在 4 张模拟 GPU 上训练，每张 GPU 用自己的小批量数据；GPU 之间的每个字节都经过 ringviz "
    "的集合通信，everything goes through the ring。";

// An ImGui context with the UI's font atlas (Chinese merged in when the font is installed);
// frames are built on the CPU only.
struct Frames {
  bool chinese = false;
  explicit Frames(float scale = 2.0f) {
    ImGui::CreateContext();
    register_glyph_text(kChineseParagraph);
    std::string problem;
    ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
    chinese = build_font_atlas(atlas, scale, Language::zh, problem);
    if (!chinese) build_font_atlas(atlas, scale, Language::en, problem);
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1600, 900);
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();  // measuring needs a current font
  }
  ~Frames() {
    ImGui::EndFrame();
    ImGui::DestroyContext();
  }
  // The runs `draw` leaves in a frame of their own.
  std::vector<TextRun> runs_of(const std::function<void(ImDrawList&)>& draw) {
    ImGui::Render();
    ImGui::NewFrame();
    draw(*ImGui::GetForegroundDrawList());
    ImGui::Render();
    std::vector<TextRun> runs = find_text_runs(*ImGui::GetDrawData(), *ImGui::GetIO().Fonts);
    ImGui::NewFrame();
    return runs;
  }
};

// As tests/gui/text_overlap.py counts an overlap: more than half a pixel both ways.
bool ink_overlaps(const Rect& a, const Rect& b) {
  const float across = std::min(a.right(), b.right()) - std::max(a.x, b.x);
  const float down = std::min(a.bottom(), b.bottom()) - std::max(a.y, b.y);
  return across > 0.5f && down > 0.5f;
}

}  // namespace

TEST_CASE("wrapped text breaks at spaces and keeps a number whole") {
  Frames frames;
  const std::string text = "after 100 iterations the GPUs disagree by up to 0.153";
  // Room for everything up to "0.1": ImGui's own wrapping would break after "0.", and the word
  // before a number goes with it as the captions' rule has it ("to 0.153", like "GPU 0").
  const WrappedText wrapped = wrap_text(text, ImGui::CalcTextSize("after 100 iterations the GPUs disagree by up to 0.1").x);
  REQUIRE(wrapped.lines.size() == 2);
  CHECK(wrapped.lines[0] == "after 100 iterations the GPUs disagree by up");
  CHECK(wrapped.lines[1] == "to 0.153");
  for (const std::string& line : wrapped.lines) CHECK(ImGui::CalcTextSize(line.c_str()).x <= wrapped.width);
}

TEST_CASE("wrapped text keeps a number with its unit or label, as the captions do") {
  Frames frames;
  // Room for "...: 112" but not its unit: a line that ends in "112" reads as the whole figure.
  const std::string sentence = "weights, gradients and optimizer state: 112 GB per GPU";
  const WrappedText english = wrap_text(sentence, ImGui::CalcTextSize("weights, gradients and optimizer state: 112").x);
  REQUIRE(english.lines.size() == 2);
  CHECK(english.lines[0] == "weights, gradients and optimizer state:");
  CHECK(english.lines[1] == "112 GB per GPU");
  // After a label too: "GPU 3" does not lose its number to the next line, and a line that
  // fits its width exactly stays whole.
  const float width = ImGui::CalcTextSize("GPU 3 disagree by 0.1").x;
  const WrappedText after = wrap_text("GPU 0 and GPU 3 disagree by 0.1", ImGui::CalcTextSize("GPU 0 and GPU").x, width);
  REQUIRE(after.lines.size() == 2);
  CHECK(after.lines[0] == "GPU 0 and");
  CHECK(after.lines[1] == "GPU 3 disagree by 0.1");
  if (!frames.chinese) {
    MESSAGE("no Chinese font installed: the Chinese half skipped");
    return;
  }
  // "第 1 轮" (round 1) stays on one line: room for "这是第 1" used to end the line there.
  const WrappedText chinese = wrap_text("这是第 1 轮的结果", ImGui::CalcTextSize("这是第 1").x);
  REQUIRE(chinese.lines.size() >= 2);
  CHECK(chinese.lines[0] == "这是");
  CHECK(chinese.lines[1].rfind("第 1 轮", 0) == 0);
}

TEST_CASE("a text that starts after a label wraps under it, and starts on the next line when no word fits beside it") {
  Frames frames;
  const float width = ImGui::CalcTextSize("every GPU holds bit-identical").x;
  const WrappedText beside = wrap_text("every GPU holds bit-identical parameters", ImGui::CalcTextSize("every GPU").x, width);
  REQUIRE(beside.lines.size() == 3);
  CHECK(beside.lines[0] == "every GPU");
  CHECK(beside.lines[1] == "holds bit-identical");
  CHECK(beside.lines[2] == "parameters");
  const WrappedText below = wrap_text("bit-identical parameters", ImGui::CalcTextSize("bit").x, width);
  REQUIRE(below.lines.size() == 2);
  CHECK(below.lines[0].empty());
  CHECK(below.lines[1] == "bit-identical parameters");
}

TEST_CASE("wrapped Chinese breaks between characters, never before a comma, and its lines' ink never overlaps") {
  // At the UI scales whose glyph advances are fractional too, where widths round up.
  for (float scale : {1.5f, 2.0f, 3.0f}) {
    CAPTURE(scale);
    Frames frames(scale);
    if (!frames.chinese) {
      MESSAGE("no Chinese font installed: skipped");
      return;
    }
    const float width = ImGui::GetFontSize() * 9;
    const WrappedText wrapped = wrap_text(kChineseParagraph, width);
    REQUIRE(wrapped.lines.size() >= 4);
    for (const std::string& line : wrapped.lines) {
      CHECK(ImGui::CalcTextSize(line.c_str()).x <= width);
      CHECK(line.rfind("，", 0) != 0);
      CHECK(line.rfind("；", 0) != 0);
    }
    // The ink of its glyphs spans more than the font size: the lines are further apart than that.
    CHECK(wrapped.pitch > ImGui::GetFontSize());
    CHECK(wrapped.pitch >= ink_extent(kChineseParagraph).height());
    const std::vector<TextRun> runs = frames.runs_of([&](ImDrawList& dl) { draw_wrapped(&dl, ImVec2(10, 10), IM_COL32_WHITE, wrapped); });
    REQUIRE(runs.size() >= wrapped.lines.size());
    for (std::size_t i = 0; i < runs.size(); ++i)
      for (std::size_t j = i + 1; j < runs.size(); ++j) {
        CAPTURE(runs[i].text);
        CAPTURE(runs[j].text);
        CHECK_FALSE(ink_overlaps(runs[i].rect, runs[j].rect));
      }
  }
}

TEST_CASE("a text board leaves out a label that would touch another or leave its bounds, and says so") {
  Frames frames;
  int drawn = 0;
  const std::vector<TextRun> runs = frames.runs_of([&](ImDrawList& dl) {
    TextBoard board({0, 0, 400, 100});
    drawn += board.place(&dl, ImVec2(10, 10), IM_COL32_WHITE, "0.15") ? 1 : 0;
    drawn += board.place(&dl, ImVec2(12, 20), IM_COL32_WHITE, "0.2") ? 1 : 0;         // on "0.15"
    drawn += board.place(&dl, ImVec2(380, 10), IM_COL32_WHITE, "1 GiB") ? 1 : 0;      // past the right edge
    drawn += board.place(&dl, ImVec2(10, 10 + ImGui::GetFontSize() * 2), IM_COL32_WHITE, "0.1") ? 1 : 0;
  });
  CHECK(drawn == 2);
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].text == "0.15");
  CHECK(runs[1].text == "0.1");
  CHECK_FALSE(ink_overlaps(runs[0].rect, runs[1].rect));
}

TEST_CASE("axis labels are thinned to every k-th tick so they stay apart, and a linear axis has as many steps as fit") {
  CHECK(label_stride(40, 30) == 1);
  CHECK(label_stride(30, 30) == 1);
  CHECK(label_stride(29, 30) == 2);
  CHECK(label_stride(10, 30) == 3);
  CHECK(label_stride(0, 30) > 1000);
  // 0.153 on 120 pixels at 30 pixels a label: four steps of 0.05, up to 0.2.
  const LinearAxis short_axis = linear_axis(0.153, 120, 30);
  CHECK(short_axis.step == doctest::Approx(0.05));
  CHECK(short_axis.top == doctest::Approx(0.2));
  // A tall plot stops at `most` steps.
  const LinearAxis tall_axis = linear_axis(0.153, 2000, 30, 8);
  CHECK(tall_axis.top / tall_axis.step <= 9);
  CHECK(tall_axis.top >= 0.153);
  // Too short for even two labels: one step, from 0 to the top.
  const LinearAxis tiny_axis = linear_axis(0.153, 20, 30);
  CHECK(tiny_axis.top / tiny_axis.step == doctest::Approx(1));
}
