// Headless frames of the memory, training and compare views: each renders and exits 0, and a
// few pixels say the right things were drawn where they should be.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "render_harness.h"

using namespace ringviz::gui_test;

namespace {

// Pixels of exactly `colour` (within 2 per channel) inside [x0, x1) x [y0, y1).
int count_colour(const Frame& frame, Rgb colour, int x0, int y0, int x1, int y1) {
  const std::vector<std::uint8_t>& rgb = frame.rgb();
  int count = 0;
  for (int y = std::max(0, y0); y < y1 && y < frame.height; ++y)
    for (int x = std::max(0, x0); x < x1 && x < frame.width; ++x)
    {
      // Straight from the bytes: Frame::pixel asserts per call, too many for a whole panel.
      const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(frame.width) + static_cast<std::size_t>(x)) * 3;
      if (close({rgb[i], rgb[i + 1], rgb[i + 2]}, colour, 2)) ++count;
    }
  return count;
}

// The centre column of the window: between the setup panel and the transfers panel.
struct Centre {
  int left, right, top, bottom;
};
Centre centre_of(const Frame& frame) {
  // PanelLayout at 1600x900 and scale 1: setup 304 px, right column 368 px, controls 86 px.
  const auto& view = frame.layout["panels"]["view"];
  const int left = view.is_object() ? static_cast<int>(view["x"].get<double>()) : 304;
  const int width = view.is_object() ? static_cast<int>(view["w"].get<double>()) : 928;
  return {left, left + width, 0, frame.height - 86};
}

}  // namespace

TEST_CASE("the memory view draws ZeRO-2's owned shards in each GPU's ring colour and DDP's bars in grey") {
  const Frame frame = render({"--size", "1600x900", "--view", "memory", "--gpus", "4"});
  const Centre c = centre_of(frame);
  // The bars take the left two thirds of the centre (the ring runs beside them): DDP's column
  // in the first third, ZeRO-2's in the second.
  const int third = (c.right - c.left) * 3 / 10;
  const int middle = c.left + third;
  for (int g = 0; g < 4; ++g) {
    CAPTURE(g);
    const Rgb colour = frame.rank_colour(g);
    const int zero2 = count_colour(frame, colour, middle, c.top, middle + third, c.bottom);
    const int ddp = count_colour(frame, colour, c.left, c.top, middle, c.bottom);
    INFO("ZeRO-2 half: " << zero2 << " pixels of " << to_string(colour) << ", DDP half: " << ddp);
    // The optimizer-state shard is a solid block in the GPU's colour; DDP has only its label.
    CHECK(zero2 > 600);
    CHECK(ddp < 200);
  }
}

TEST_CASE("the memory view draws the chosen GPU's capacity as a dashed line in the warning colour") {
  const Frame frame = render({"--size", "1600x900", "--view", "memory"});
  const Centre c = centre_of(frame);
  const Rgb warning = {240, 190, 80};  // the dark theme's warning colour
  CHECK(count_colour(frame, warning, c.left, c.top, c.right, c.bottom) > 300);
}

TEST_CASE("the training view renders loss curves and the spread plot") {
  const Frame frame = render({"--size", "1600x900", "--view", "training", "--gpus", "4"});
  const Centre c = centre_of(frame);
  // The no-sync spread line, thick and in the reduce-scatter phase colour, climbs the plot.
  const Rgb nosync = {236, 164, 64};
  CHECK(count_colour(frame, nosync, c.left, c.top, c.right, c.bottom) > 100);
  // Each GPU has a loss curve in its colour.
  for (int g = 0; g < 4; ++g) CHECK(count_colour(frame, frame.rank_colour(g), c.left, c.top, c.right, c.bottom) > 20);
}

TEST_CASE("the compare view renders, with the ring's equally loaded links at the top of the heat scale") {
  const Frame frame = render({"--size", "1600x900", "--view", "compare", "--gpus", "4", "--round", "0.3"});
  const Centre c = centre_of(frame);
  const Rgb hottest = {232, 72, 56};
  CHECK(count_colour(frame, hottest, c.left, c.top, c.right, c.bottom) > 50);
}

TEST_CASE("every algorithm renders in the ring view mid-round") {
  for (const char* algorithm : {"naive", "direct", "rhd", "tree", "tree-pipelined"}) {
    CAPTURE(algorithm);
    const Frame frame = render({"--size", "1200x800", "--algo", algorithm, "--gpus", "5", "--round", "0.3"}, Capture::pixels_only);
    CHECK(frame.width == 1200);
  }
}

TEST_CASE("--view rejects an unknown view with exit code 2") {
  const Run run = run_ringviz({"--headless", "--view", "bogus"});
  CHECK(run.exit_code == 2);
  CHECK(run.output.find("--view") != std::string::npos);
}

TEST_CASE("the memory view's whole iteration shows llama3-8b on 8 GPUs with the model's bytes, peak and verdict") {
  const Frame frame = render({"--size", "1600x900", "--view", "memory", "--gpus", "8", "--memory-model", "llama3-8b"});
  const nlohmann::json& memory = frame.layout["memory"];
  REQUIRE(memory["mode"] == "iteration");
  // The iteration model's own figures, as `ringviz memory` prints them.
  const Run cli = run_ringviz({"memory", "--model", "llama3-8b", "--gpus", "8", "--strategy", "ddp", "--format", "json"});
  REQUIRE(cli.exit_code == 0);
  const nlohmann::json expected = nlohmann::json::parse(cli.output)["estimates"][0];
  CHECK(memory["model"] == "llama3-8b");
  CHECK(memory["strategy"] == "ddp");
  REQUIRE(memory["gpus"].size() == 8);
  // Shown at the peak: every GPU's bar is the peak's memory, part by part.
  const nlohmann::json& peak = expected["per_gpu"];
  CHECK(memory["moment"]["event"] == expected["peak"]["event"]);
  for (const nlohmann::json& gpu : memory["gpus"])
    for (const char* part : {"parameters", "gradients", "optimizer_states", "activations", "logits", "buffers"}) {
      CAPTURE(part);
      CHECK(gpu[part] == peak[part]);
    }
  CHECK(memory["peak"]["bytes"] == peak["peak"]);
  CHECK(memory["peak"]["cause"] == "activations");
  CHECK(memory["peak"]["cause"] == expected["peak"]["cause"]);
  CHECK(memory["fits"] == expected["fits"]);
  CHECK(memory["fits"] == false);
  CHECK(memory["iteration_seconds"]["total"].get<double>() ==
        doctest::Approx(expected["iteration_seconds"]["total"].get<double>()));
  // The activations' colour fills the bars, and the GPU-memory line is drawn in the warning colour.
  const Centre c = centre_of(frame);
  CHECK(count_colour(frame, Rgb{236, 150, 56}, c.left, c.top, c.right, c.bottom) > 2000);
  CHECK(count_colour(frame, Rgb{240, 190, 80}, c.left, c.top, c.right, c.bottom) > 300);
}

TEST_CASE("--memory-model refuses an unknown transformer, naming the flag") {
  const Run run = run_ringviz({"--headless", "--view", "memory", "--memory-model", "llama9"});
  CHECK(run.exit_code == 2);
  CHECK(run.output.find("--memory-model") != std::string::npos);
}

TEST_CASE("the compare tab on ring:8 and nvswitch:8 dumps its topology, the sentence it says and each link's load") {
  for (const char* kind : {"ring", "nvswitch"}) {
    for (const char* language : {"en", "zh"}) {
      CAPTURE(kind);
      CAPTURE(language);
      const Frame frame = render({"--size", "1280x720", "--view", "compare", "--gpus", "8", "--algo", "direct", "--round",
                                  "0.5", "--compare-topology", kind, "--lang", language}, Capture::layout_only);
      const auto& compare = frame.layout["compare"];
      REQUIRE(compare.is_object());
      CHECK(compare["topology"] == std::string(kind) + ":8");
      const std::string sentence = compare["sentence"];
      CHECK(sentence.find(compare["fastest_smallest"].get<std::string>()) != std::string::npos);
      CHECK(sentence.find(compare["fastest_largest"].get<std::string>()) != std::string::npos);
      for (const auto& crossover : compare["crossovers"])
        CHECK(sentence.find(crossover["faster"].get<std::string>()) != std::string::npos);
      // direct's first step: every GPU sends to all 7 others at once, so links are shared.
      int shared = 0;
      for (const auto& link : compare["links"]) shared += link["shared"].get<bool>() ? 1 : 0;
      CHECK(shared > 0);
    }
  }
}

TEST_CASE("the compare tab says what NCCL would do above its table, drawn whole, in both languages") {
  for (const char* language : {"en", "zh"}) {
    CAPTURE(language);
    const Frame frame = render({"--size", "1280x720", "--view", "compare", "--gpus", "8", "--count", "1M",
                                "--compare-topology", "nvswitch", "--lang", language}, Capture::layout_only);
    const std::string line = frame.layout["compare"]["nccl_line"];
    // 4 MiB per GPU on 8 H100s on NVSwitch: NCCL's tuner picks NVLink SHARP (docs/nccl-model.md).
    CHECK(line.find("NVLS/SIMPLE") != std::string::npos);
    bool drawn = false;
    for (const auto& text : frame.layout["texts"])
      if (text["text"].get<std::string>().find("NVLS/SIMPLE") != std::string::npos) drawn = !text["clipped"].get<bool>();
    CHECK(drawn);
    CHECK(frame.layout["missing_glyphs"].empty());
  }
}

TEST_CASE("the compare tab's link view has no shared link under the ring on ring:8") {
  const Frame frame = render({"--size", "1600x900", "--view", "compare", "--gpus", "8", "--round", "0.5",
                              "--compare-topology", "ring"}, Capture::layout_only);
  const auto& links = frame.layout["compare"]["links"];
  int busy = 0;
  for (const auto& link : links) {
    CHECK_FALSE(link["shared"].get<bool>());
    busy += link["transfers"].get<int>() > 0 ? 1 : 0;
  }
  CHECK(busy == 8);
}

TEST_CASE("--compare-topology refuses an unknown topology with exit code 2") {
  const Run run = run_ringviz({"--headless", "--compare-topology", "torus"});
  CHECK(run.exit_code == 2);
  CHECK(run.output.find("--compare-topology") != std::string::npos);
}
