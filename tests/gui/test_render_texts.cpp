// The layout dump's text parts on real frames: "texts" lists what was drawn (the ring's GPU
// titles and cell labels, the panels' widgets), each cell's "label" is the text drawn on it,
// and "view" and "lesson" say what is on screen.
#include <doctest/doctest.h>

#include <string>

#include "render_harness.h"

using namespace ringviz::gui_test;

namespace {

bool inside(const nlohmann::json& text, const nlohmann::json& rect) {
  constexpr double slack = 0.5;
  return text["x"].get<double>() >= rect["x"].get<double>() - slack &&
         text["y"].get<double>() >= rect["y"].get<double>() - slack &&
         text["x"].get<double>() + text["w"].get<double>() <= rect["x"].get<double>() + rect["w"].get<double>() + slack &&
         text["y"].get<double>() + text["h"].get<double>() <= rect["y"].get<double>() + rect["h"].get<double>() + slack;
}

int count_texts(const Frame& frame, const std::string& string) {
  int count = 0;
  for (const auto& text : frame.layout["texts"]) count += text["text"] == string ? 1 : 0;
  return count;
}

}  // namespace

TEST_CASE("texts: every cell label of the ring is a text drawn inside its cell, and the view is the ring") {
  // Mid-AllReduce: cells hold sums such as "a0+b0", drawn on their cells.
  const Frame frame = render({"--size", "1920x1080", "--op", "allreduce", "--gpus", "4", "--round", "2"}, Capture::layout_only);
  CHECK(frame.layout["view"] == "ring");
  CHECK(frame.layout["lesson"].is_null());
  const auto& texts = frame.layout["texts"];
  REQUIRE(texts.is_array());
  int labels = 0;
  for (const auto& gpu : frame.layout["gpus"]) {
    for (const auto& cell : gpu["cells"]) {
      const std::string label = cell["label"].get<std::string>();
      CAPTURE(gpu["rank"].get<int>());
      CAPTURE(cell["slot"].get<int>());
      CAPTURE(label);
      if (cell["state"] == "empty") {
        CHECK(label.empty());
        continue;
      }
      REQUIRE_FALSE(label.empty());
      ++labels;
      bool found = false;
      for (const auto& text : texts)
        if (text["text"] == label && inside(text, cell["painted"])) found = true;
      CHECK_MESSAGE(found, "no text '" << label << "' inside the cell " << cell["painted"].dump());
    }
  }
  CHECK(labels > 0);
  // The GPU titles and the panels' own text are listed too.
  for (int r = 0; r < 4; ++r) CHECK(count_texts(frame, "GPU " + std::to_string(r)) >= 1);
  for (const auto& text : texts) {
    CHECK(text["w"].get<double>() > 0);
    CHECK(text["h"].get<double>() > 0);
  }
}

TEST_CASE("texts: another view has no cell labels, and says which view it is") {
  for (const char* view : {"training", "compare", "devices"}) {
    CAPTURE(view);
    const Frame frame = render({"--size", "1600x900", "--view", view}, Capture::layout_only);
    CHECK(frame.layout["view"] == view);
    CHECK_FALSE(frame.layout["texts"].empty());
    for (const auto& gpu : frame.layout["gpus"])
      for (const auto& cell : gpu["cells"]) CHECK(cell["label"] == "");
  }
}

TEST_CASE("texts: the Memory tab draws the ring beside its bars, labels and all") {
  const Frame frame = render({"--size", "1600x900", "--view", "memory", "--round", "3.4"}, Capture::layout_only);
  CHECK(frame.layout["view"] == "memory");
  int labels = 0;
  for (const auto& gpu : frame.layout["gpus"])
    for (const auto& cell : gpu["cells"]) labels += cell["label"] != "";
  CHECK(labels > 0);
  // The ring beside the bars runs the step's collective, ZeRO-2's first reduce-scatter, and says
  // so above it (wrapped over lines as the column's width needs).
  std::string words;
  for (const auto& text : frame.layout["texts"])
    if (!words.empty() || text["text"].get<std::string>().rfind("Ring: ", 0) == 0) {
      words += (words.empty() ? "" : " ") + text["text"].get<std::string>();
      if (words.size() >= 40) break;
    }
  CHECK(words.rfind("Ring: reduce-scatter of the gradients", 0) == 0);
}

TEST_CASE("texts: an integer reduction that wraps shows a notice naming the first element, drawn in the window") {
  const Frame frame = render({"--size", "1600x900", "--gpus", "2", "--count", "2", "--dtype", "i32", "--reduce", "prod",
                              "--init", "values:1,100000/2,100000"}, Capture::layout_only);
  const std::string expected = "i32 prod overflows at element 1: exact 10000000000";
  REQUIRE(frame.layout["notices"].size() == 1);
  CHECK(frame.layout["notices"][0] == expected);
  // Drawn, not only listed: the controls bar shows a notice only where it fits whole.
  CHECK(count_texts(frame, "Note: " + expected) == 1);
  // A collective that fits says nothing.
  const Frame fits = render({"--size", "1600x900", "--gpus", "2", "--count", "1", "--dtype", "i32", "--reduce", "prod",
                             "--init", "values:46340/46340"}, Capture::layout_only);
  CHECK(fits.layout["notices"].empty());
}
