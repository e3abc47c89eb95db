// NVLS rendered headless: the reduction happens inside the NVSwitch, so the ring view draws the
// switch in the middle of the GPUs with a spoke each way to every GPU instead of the ring's
// arrows; the spokes light where the round's parts travel, and the switch's cell for each slot
// shows the sum it forms there.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "render_harness.h"

using namespace ringviz::gui_test;

namespace {

std::vector<std::string> nvls_args(int gpus, const std::string& round, const std::string& size = "1600x900") {
  return {"--size", size, "--algo", "nvls", "--gpus", std::to_string(gpus), "--topology",
          "nvswitch:" + std::to_string(gpus), "--round", round};
}

bool inside(const nlohmann::json& rect, const nlohmann::json& text) {
  const double x = text["x"], y = text["y"], w = text["w"], h = text["h"];
  return x >= rect["x"].get<double>() && y >= rect["y"].get<double>() &&
         x + w <= rect["x"].get<double>() + rect["w"].get<double>() &&
         y + h <= rect["y"].get<double>() + rect["h"].get<double>();
}

// The strings drawn inside `rect`.
std::vector<std::string> texts_inside(const Frame& frame, const nlohmann::json& rect) {
  std::vector<std::string> found;
  for (const auto& text : frame.layout["texts"])
    if (inside(rect, text)) found.push_back(text["text"]);
  return found;
}

bool has(const std::vector<std::string>& texts, const std::string& wanted) {
  for (const std::string& text : texts)
    if (text == wanted) return true;
  return false;
}

bool boxes_overlap(const nlohmann::json& a, const nlohmann::json& b) {
  return a["x"].get<double>() < b["x"].get<double>() + b["w"].get<double>() &&
         b["x"].get<double>() < a["x"].get<double>() + a["w"].get<double>() &&
         a["y"].get<double>() < b["y"].get<double>() + b["h"].get<double>() &&
         b["y"].get<double>() < a["y"].get<double>() + a["h"].get<double>();
}

// How far point `p` lies from the segment a-b.
double distance_to_segment(const nlohmann::json& p, const nlohmann::json& a, const nlohmann::json& b) {
  const double px = p[0], py = p[1], ax = a[0], ay = a[1], bx = b[0], by = b[1];
  const double dx = bx - ax, dy = by - ay, length2 = dx * dx + dy * dy;
  const double t = length2 > 0 ? std::clamp(((px - ax) * dx + (py - ay) * dy) / length2, 0.0, 1.0) : 0.0;
  return std::hypot(px - (ax + t * dx), py - (ay + t * dy));
}

// Lit spokes take the phase colour (orange while reducing, blue while copying); idle ones are grey.
bool orange(Rgb c) { return c.r > c.b + 80 && c.r > c.g; }
bool blue(Rgb c) { return c.b > c.r + 60; }
bool grey(Rgb c) { return std::abs(c.r - c.b) < 40 && std::abs(c.r - c.g) < 40 && c.r > 60; }

}  // namespace

TEST_CASE("nvls: the switch sits in the middle, clear of every GPU, with no ring arrows") {
  for (int gpus : {4, 8}) {
    CAPTURE(gpus);
    const Frame frame = render(nvls_args(gpus, "0"), Capture::layout_only);
    const auto& in_switch = frame.layout["switch"];
    REQUIRE(in_switch.is_object());
    CHECK(frame.layout["arrows"].empty());
    CHECK(in_switch["cells"].size() == static_cast<std::size_t>(gpus));
    CHECK(in_switch["spokes"].size() == static_cast<std::size_t>(2 * gpus));
    for (const auto& gpu : frame.layout["gpus"]) CHECK_FALSE(boxes_overlap(gpu["box"], in_switch["box"]));
    CHECK(has(texts_inside(frame, in_switch["box"]), "NVSwitch: sums each slot"));
    // Before the first round the switch has summed nothing: no labels in its cells.
    for (const auto& cell : in_switch["cells"]) CHECK(texts_inside(frame, cell).empty());
  }
  // Another algorithm keeps its arrows and has no switch.
  const Frame ring = render({"--size", "1600x900", "--gpus", "4", "--round", "0"}, Capture::layout_only);
  CHECK(ring.layout["switch"].is_null());
  CHECK(ring.layout["arrows"].size() == 4u);
}

TEST_CASE("nvls: while the parts travel every GPU's way into the switch is lit, and idle spokes are grey at rest") {
  // Position 0.5: round 1, the reduction, in flight.
  const Frame moving = render(nvls_args(4, "0.5"));
  REQUIRE(moving.layout["switch"].is_object());
  int lit_up = 0;
  for (const auto& spoke : moving.layout["switch"]["spokes"]) {
    if (spoke["way"] != "up") continue;
    const Rgb middle = moving.pixel_at(spoke["middle"][0].get<double>(), spoke["middle"][1].get<double>());
    INFO("GPU " << spoke["gpu"] << " into the switch: " << to_string(middle));
    lit_up += orange(middle) ? 1 : 0;
  }
  // A packet may sit on a spoke's middle; most show the spoke itself.
  CHECK(lit_up >= 3);
  const Frame copying = render(nvls_args(4, "1.5"));  // round 2, the multicast, in flight
  int lit_down = 0;
  for (const auto& spoke : copying.layout["switch"]["spokes"])
    if (spoke["way"] == "down")
      lit_down += blue(copying.pixel_at(spoke["middle"][0].get<double>(), spoke["middle"][1].get<double>())) ? 1 : 0;
  CHECK(lit_down >= 3);
  const Frame resting = render(nvls_args(4, "1"));
  for (const auto& spoke : resting.layout["switch"]["spokes"]) {
    const Rgb middle = resting.pixel_at(spoke["middle"][0].get<double>(), spoke["middle"][1].get<double>());
    INFO("spoke of GPU " << spoke["gpu"] << " " << spoke["way"] << ": " << to_string(middle));
    CHECK(grey(middle));
  }
}

TEST_CASE("nvls: after the reducing round the switch shows each slot's sum and each owner holds it") {
  const Frame frame = render(nvls_args(4, "1"), Capture::layout_only);
  const auto& cells = frame.layout["switch"]["cells"];
  REQUIRE(cells.size() == 4u);
  // Every term where the cell has room, else core's run of them.
  const char* sums[] = {"a0+b0+c0+d0", "a1+b1+c1+d1", "a2+b2+c2+d2", "a3+b3+c3+d3"};
  const char* runs[] = {"a0..d0", "a1..d1", "a2..d2", "a3..d3"};
  for (int slot = 0; slot < 4; ++slot) {
    CAPTURE(slot);
    const std::vector<std::string> drawn = texts_inside(frame, cells[slot]);
    CHECK((has(drawn, sums[slot]) || has(drawn, runs[slot])));
    CHECK(frame.cell(slot, slot)["contributors"] == nlohmann::json::array({0, 1, 2, 3}));
  }
  // The end: every GPU holds every sum.
  const Frame done = render(nvls_args(4, "2"), Capture::layout_only);
  for (int rank = 0; rank < 4; ++rank)
    for (int slot = 0; slot < 4; ++slot) CHECK(done.cell(rank, slot)["contributors"].size() == 4u);
}

TEST_CASE("nvls: the Chinese frame names the switch, and the setup panel says which machine NVLS assumes") {
  std::vector<std::string> args = nvls_args(4, "1");
  args.insert(args.end(), {"--lang", "zh"});
  const Frame zh = render(args, Capture::layout_only);
  CHECK(zh.layout["missing_glyphs"].empty());
  CHECK(has(texts_inside(zh, zh.layout["switch"]["box"]), "NVSwitch：逐分片求和"));
  const Frame en = render(nvls_args(4, "0"), Capture::layout_only);
  bool notice = false;
  for (const auto& text : en.layout["texts"])
    notice = notice || text["text"].get<std::string>().find("NVLS assumes every GPU") != std::string::npos;
  CHECK(notice);
}

TEST_CASE("nvls: at 1280x720 the switch still fits between 4 and 8 GPUs") {
  for (int gpus : {4, 8}) {
    CAPTURE(gpus);
    const Frame frame = render(nvls_args(gpus, "1.5", "1280x720"), Capture::layout_only);
    REQUIRE(frame.layout["switch"].is_object());
    for (const auto& gpu : frame.layout["gpus"]) CHECK_FALSE(boxes_overlap(gpu["box"], frame.layout["switch"]["box"]));
  }
}

TEST_CASE("nvls: pipelined, every slice's marker rides its GPU's spoke through the switch, never a chord") {
  // Wave 2 of 5 mid-flight: slice 1 of the reducing round goes up every sender's spoke while
  // slice 0 of the multicast comes down every receiver's.
  std::vector<std::string> args = nvls_args(8, "1.5", "1280x720");
  args.insert(args.end(), {"--slices", "4", "--channels", "2"});
  const Frame frame = render(args, Capture::layout_only);
  const auto& in_switch = frame.layout["switch"];
  REQUIRE(in_switch.is_object());
  const auto& pipeline = frame.layout["pipeline"];
  REQUIRE(pipeline.is_object());
  const auto& markers = pipeline["markers"];
  // 8 senders x 7 slots x 2 channels, once for each round in flight.
  REQUIRE(markers.size() == 2u * 8u * 7u * 2u);
  int reducing = 0, copying = 0;
  for (const auto& marker : markers) {
    const bool reduce = marker["kind"] == "reduce";
    (reduce ? reducing : copying) += 1;
    // A reducing slice rides its sender's way in, a copy its receiver's way out.
    const int gpu = reduce ? marker["src"].get<int>() : marker["dst"].get<int>();
    const std::string way = reduce ? "up" : "down";
    const nlohmann::json* spoke = nullptr;
    for (const auto& candidate : in_switch["spokes"])
      if (candidate["gpu"] == gpu && candidate["way"] == way) spoke = &candidate;
    REQUIRE(spoke != nullptr);
    const double width = marker["rect"]["w"];
    const double off = distance_to_segment(marker["centre"], (*spoke)["from"], (*spoke)["to"]);
    INFO("marker " << marker["src"] << " -> " << marker["dst"] << " slot " << marker["slot"] << " channel "
                   << marker["channel"] << " (" << marker["kind"] << ") lies " << off << " px off the spoke");
    // Within its lane's offset across the spoke (and a pixel of rounding).
    CHECK(off <= width * 1.3 + 1.0);
  }
  CHECK(reducing == 8 * 7 * 2);
  CHECK(copying == 8 * 7 * 2);
}
