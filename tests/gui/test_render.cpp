// Headless frames checked pixel by pixel against the layout ringviz reports: each cell's
// centre must show the provenance colour the model gives it.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "render_harness.h"

using namespace ringviz::gui_test;

namespace {

bool is_hatch(const Frame& frame, Rgb c) {
  for (const auto& h : frame.layout["colours"]["hatch"])
    if (close(c, {h[0].get<int>(), h[1].get<int>(), h[2].get<int>()})) return true;
  return false;
}

// Checks every cell of the frame: hatched when empty; otherwise one vertical stripe per
// contributor, each in its rank's colour (dimmed when stale), sampled at the cell's middle
// height, which labels and value bands stay clear of.
void check_every_cell(const Frame& frame) {
  for (const auto& gpu : frame.layout["gpus"]) {
    for (const auto& cell : gpu["cells"]) {
      const int rank = gpu["rank"].get<int>();
      const int slot = cell["slot"].get<int>();
      const auto& painted = cell["painted"];
      const double x = painted["x"].get<double>(), w = painted["w"].get<double>();
      const double cy = cell["centre"][1].get<double>();
      const std::string state = cell["state"].get<std::string>();
      const auto& contributors = cell["contributors"];
      CAPTURE(rank);
      CAPTURE(slot);
      CAPTURE(state);
      if (state == "empty") {
        const Rgb seen = frame.pixel_at(cell["centre"][0].get<double>(), cy);
        INFO("seen " << to_string(seen));
        CHECK(is_hatch(frame, seen));
        continue;
      }
      const std::size_t count = contributors.size();
      REQUIRE(count > 0);
      for (std::size_t k = 0; k < count; ++k) {
        const int source = contributors[k].get<int>();
        const Rgb expected = state == "stale" ? frame.stale_colour(source) : frame.rank_colour(source);
        const Rgb seen = frame.pixel_at(x + (static_cast<double>(k) + 0.5) * w / static_cast<double>(count), cy);
        INFO("stripe " << k << " of " << count << ": expected GPU " << source << "'s " << to_string(expected)
                       << ", seen " << to_string(seen));
        CHECK(close(seen, expected));
      }
    }
  }
}

}  // namespace

TEST_CASE("after round 1 of AllGather on 4 GPUs, GPU 0's slot 3 shows GPU 3's colour and slots 1 and 2 are empty") {
  const Frame frame = render({"--size", "1600x900", "--op", "allgather", "--gpus", "4", "--round", "1"});
  CHECK(frame.width == 1600);
  CHECK(frame.height == 900);
  auto centre = [&](int slot) {
    const auto& c = frame.cell(0, slot)["centre"];
    return frame.pixel_at(c[0].get<double>(), c[1].get<double>());
  };
  INFO("slot 3 shows " << to_string(centre(3)) << ", GPU 3 is " << to_string(frame.rank_colour(3)));
  CHECK(close(centre(3), frame.rank_colour(3)));
  CHECK(close(centre(0), frame.rank_colour(0)));
  CHECK(frame.cell(0, 1)["state"] == "empty");
  CHECK(frame.cell(0, 2)["state"] == "empty");
  CHECK(is_hatch(frame, centre(1)));
  CHECK(is_hatch(frame, centre(2)));
  check_every_cell(frame);
}

TEST_CASE("with the CPU backend the layout names the cell upload and why it was chosen") {
  const Frame frame = render({"--size", "800x600", "--backend", "cpu", "--round", "1"});
  CHECK(frame.layout["cell_source"] == "upload");
  CHECK(frame.layout["cell_source_reason"] == "CPU backend: cells uploaded from host memory");
  check_every_cell(frame);
}

TEST_CASE("the devices tab fills the centre under the tabs and the layout lists its rectangle") {
  const Frame frame = render({"--size", "1600x900", "--backend", "cpu", "--view", "devices", "--round", "1.5"}, Capture::layout_only);
  const auto& devices = frame.layout["panels"]["devices"];
  const auto& view = frame.layout["panels"]["view"];
  CHECK(devices["w"].get<double>() == doctest::Approx(view["w"].get<double>()));
  CHECK(devices["h"].get<double>() > 400);
  CHECK(devices["x"].get<double>() + devices["w"].get<double>() <= 1600);
  CHECK(devices["y"].get<double>() + devices["h"].get<double>() <= 900);
  const Frame ring = render({"--size", "1600x900", "--backend", "cpu", "--round", "1.5"}, Capture::layout_only);
  CHECK(ring.layout["panels"]["devices"]["w"] == 0);
}

TEST_CASE("every cell shows its provenance, for several configs and rounds") {
  struct Case {
    std::vector<std::string> args;
  };
  const std::vector<Case> cases = {
      {{"--op", "allreduce", "--gpus", "4", "--round", "0"}},
      {{"--op", "allreduce", "--gpus", "4", "--round", "2"}},
      {{"--op", "allreduce", "--gpus", "4", "--round", "4"}},
      {{"--op", "reducescatter", "--gpus", "5", "--order", "nccl", "--round", "2"}},
      {{"--op", "allgather", "--gpus", "3", "--count", "100000", "--round", "1"}},
      {{"--op", "allreduce", "--gpus", "8", "--round", "5"}},
  };
  for (const Case& c : cases) {
    std::string description;
    for (const auto& a : c.args) description += a + " ";
    CAPTURE(description);
    const Frame frame = render(c.args);
    check_every_cell(frame);
  }
}

TEST_CASE("a broadcast from root 3 of 5 paints GPU 3's slots in GPU 3's colour down the chain 3, 4, 0, 1, 2") {
  const Frame frame = render({"--op", "broadcast", "--gpus", "5", "--root", "3", "--round", "3"});
  check_every_cell(frame);
  CHECK(frame.layout["fallback_glyphs_drawn"] == 0);  // the caption's chain arrows are in the atlas
  // After round 3 slot 0 has gone three hops (4, 0, 1), slot 1 two, slot 2 one; GPU 2 has nothing.
  std::vector<int> filled(5, 0);
  for (const auto& gpu : frame.layout["gpus"])
    for (const auto& cell : gpu["cells"]) {
      if (cell["state"].get<std::string>() == "empty") continue;
      CHECK(cell["contributors"] == nlohmann::json::array({3}));
      ++filled[static_cast<std::size_t>(gpu["rank"].get<int>())];
    }
  CHECK(filled == std::vector<int>{2, 1, 0, 5, 3});
}

TEST_CASE("at the end of ReduceScatter the slots a GPU no longer needs are dimmed") {
  const Frame frame = render({"--op", "reducescatter", "--gpus", "4", "--round", "3"});
  int owned = 0, stale = 0;
  for (const auto& gpu : frame.layout["gpus"])
    for (const auto& cell : gpu["cells"]) {
      if (cell["owned"].get<bool>()) ++owned;
      if (cell["state"] == "stale") ++stale;
    }
  CHECK(owned == 4);
  CHECK(stale == 12);
  check_every_cell(frame);
  // Dimmed really is different from the plain colour.
  const int source = frame.cell(0, 0)["contributors"][0].get<int>();
  CHECK_FALSE(close(frame.stale_colour(source), frame.rank_colour(source), 10));
}

TEST_CASE("mid-round the cells still show the state before the transfer lands") {
  const Frame frame = render({"--op", "allgather", "--gpus", "4", "--round", "0.3"});
  CHECK(frame.layout["rest_round"] == 0);
  CHECK(frame.cell(1, 0)["state"] == "empty");  // GPU 0's block is still on its way
  check_every_cell(frame);
}

TEST_CASE("a frame after a resize is laid out for the new size") {
  const Frame frame = render({"--size", "1600x900", "--resize", "1100x720", "--gpus", "6", "--round", "3"});
  CHECK(frame.width == 1100);
  CHECK(frame.height == 720);
  CHECK(frame.layout["window"]["width"] == 1100);
  const auto& view = frame.layout["panels"]["view"];
  for (const auto& gpu : frame.layout["gpus"]) {
    const auto& box = gpu["box"];
    CHECK(box["x"].get<double>() >= view["x"].get<double>());
    CHECK(box["x"].get<double>() + box["w"].get<double>() <= view["x"].get<double>() + view["w"].get<double>());
    CHECK(box["y"].get<double>() + box["h"].get<double>() <= view["y"].get<double>() + view["h"].get<double>());
  }
  check_every_cell(frame);
}

TEST_CASE("the light theme and the colour-blind palette draw with their own colours") {
  const Frame dark = render({"--gpus", "4", "--round", "0"});
  const Frame light = render({"--gpus", "4", "--round", "0", "--theme", "light", "--palette", "colour-blind"});
  CHECK(light.layout["theme"] == "light");
  CHECK_FALSE(close(light.rank_colour(0), dark.rank_colour(0), 10));
  check_every_cell(light);
  // The light theme's background really is light.
  const auto& view = light.layout["panels"]["view"];
  const Rgb corner = light.pixel_at(view["x"].get<double>() + 3, view["y"].get<double>() + 3);
  CHECK(corner.r + corner.g + corner.b > 3 * 180);
}

TEST_CASE("256 GPUs start, render and exit cleanly") {
  const Frame frame = render({"--gpus", "256", "--round", "300"}, Capture::pixels_only);
  CHECK(frame.width == 1600);
  CHECK(frame.height == 900);
}

TEST_CASE("bad GUI options exit with code 2 and one line naming the flag") {
  const Run round = run_ringviz({"--headless", "--round", "99"});
  CHECK(round.exit_code == 2);
  CHECK(round.output.find("--round") != std::string::npos);
  const Run size = run_ringviz({"--headless", "--size", "big"});
  CHECK(size.exit_code == 2);
  CHECK(size.output.find("--size") != std::string::npos);
}

TEST_CASE("--backend cuda reaches the headless frame and the recording, or exits 2 with one line where CUDA cannot run") {
  const auto folder = scratch_dir() / "backend-cuda";
  std::filesystem::create_directories(folder);
  const bool cuda_runs = run_ringviz({"trace", "--backend", "cuda", "--gpus", "2", "--count", "2"}).exit_code == 0;
  const Run frame = run_ringviz({"--headless", "--backend", "cuda", "--size", "320x240", "--screenshot",
                                 (folder / "frame.png").string(), "--dump-layout", (folder / "frame.json").string()});
  const Run video = run_ringviz({"record", "--backend", "cuda", "--out", (folder / "png").string() + "/", "--size",
                                 "320x240", "--fps", "4", "--seconds", "0.5"});
  INFO(frame.output);
  INFO(video.output);
  if (!cuda_runs) {
    for (const Run* run : {&frame, &video}) {
      CHECK(run->exit_code == 2);
      CHECK(run->output.rfind("ringviz: --backend cuda: ", 0) == 0);
      CHECK(std::count(run->output.begin(), run->output.end(), '\n') == 1);
    }
    CHECK_FALSE(std::filesystem::exists(folder / "frame.png"));
    return;
  }
  CHECK(frame.exit_code == 0);
  CHECK(video.exit_code == 0);
  std::ifstream in(folder / "frame.json");
  CHECK(nlohmann::json::parse(in)["graphics"]["backend"] == "cuda");
}

TEST_CASE("the layout dump names the backend, the GL context and the GL renderer that drew the frame") {
  const Frame frame = render({"--backend", "cpu", "--gpus", "2"}, Capture::layout_only);
  const nlohmann::json& graphics = frame.layout["graphics"];
  CHECK(graphics["backend"] == "cpu");
  const std::string context = graphics["gl_context"];
  CHECK((context.rfind("EGL ", 0) == 0 || context.find("GLFW window") != std::string::npos));
  CHECK_FALSE(graphics["gl_renderer"].get<std::string>().empty());
  CHECK(context.find(graphics["gl_renderer"].get<std::string>()) != std::string::npos);
}

TEST_CASE("with neither a display nor EGL, ringviz says so once and exits 2") {
  // glvnd finds no EGL vendor when pointed at a file that does not exist.
  const Run run = run_ringviz({"--headless", "--screenshot", (scratch_dir() / "none.png").string()},
                              {{"DISPLAY", ""}, {"WAYLAND_DISPLAY", ""},
                               {"__EGL_VENDOR_LIBRARY_FILENAMES", "/nonexistent/ringviz-no-egl.json"}});
  INFO(run.output);
  CHECK(run.exit_code == 2);
  CHECK(run.output.find("no OpenGL context") != std::string::npos);
  CHECK(std::count(run.output.begin(), run.output.end(), '\n') == 1);
  // The interactive GUI gives the same kind of answer without a display.
  const Run window = run_ringviz({}, {{"DISPLAY", ""}, {"WAYLAND_DISPLAY", ""}});
  CHECK(window.exit_code == 2);
  CHECK(window.output.find("no display") != std::string::npos);
}

TEST_CASE("bad input exits 2 in the GUI as in trace: an init file, a folder as --settings") {
  const auto folder = scratch_dir() / "hostile-gui";
  std::filesystem::create_directories(folder);
  const std::string init = (folder / "wide.json").string();
  std::ofstream(init) << "[[1, 2], [3, 3000000000]]";
  const Run wide = run_ringviz({"--headless", "--gpus", "2", "--count", "2", "--dtype", "i32", "--init", "file:" + init});
  INFO(wide.output);
  CHECK(wide.exit_code == 2);
  CHECK(wide.output.find(init + ":1:14: [1][1]") != std::string::npos);
  const Run settings = run_ringviz({"--headless", "--settings", folder.string()});
  INFO(settings.output);
  CHECK(settings.exit_code == 2);
  CHECK(settings.output.find("--settings: " + folder.string() + " is a directory") != std::string::npos);
}

TEST_CASE("a damaged --settings file in headless mode is named on stderr and the frame uses defaults") {
  const auto folder = scratch_dir() / "hostile-settings";
  std::filesystem::create_directories(folder);
  const std::string path = (folder / "settings.json").string();
  std::ofstream(path) << "{\"theme\": 7}";
  const Run run = run_ringviz({"--headless", "--settings", path, "--screenshot", (folder / "x.png").string()});
  INFO(run.output);
  CHECK(run.exit_code == 0);
  CHECK(run.output.find("ringviz: settings file " + path + ":1:11: theme: expected a string, got a number; using the defaults instead") !=
        std::string::npos);
}

TEST_CASE("in presentation mode at 1280x720 in-flight packets leave every cell's label and values uncovered") {
  const std::vector<std::string> config = {"--present", "--reduce", "min", "--gpus", "3", "--size", "1280x720"};
  std::vector<std::string> at_rest = config, in_flight = config;
  at_rest.insert(at_rest.end(), {"--round", "2"});
  in_flight.insert(in_flight.end(), {"--round", "2.5"});
  const Frame before = render(at_rest);
  const Frame moving = render(in_flight);
  REQUIRE(moving.layout["rest_round"] == 2);
  // Mid-round the cells show the state before the round, as at rest: any pixel inside a cell
  // that differs was painted over by a packet (the sending cells' outline stays at the edge).
  const int inset = 5;
  for (const auto& gpu : moving.layout["gpus"])
    for (const auto& cell : gpu["cells"]) {
      const auto& painted = cell["painted"];
      const int x0 = static_cast<int>(painted["x"].get<double>()) + inset;
      const int y0 = static_cast<int>(painted["y"].get<double>()) + inset;
      const int x1 = static_cast<int>(painted["x"].get<double>() + painted["w"].get<double>()) - inset;
      const int y1 = static_cast<int>(painted["y"].get<double>() + painted["h"].get<double>()) - inset;
      int covered = 0;
      for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x)
          if (!close(before.pixel(x, y), moving.pixel(x, y), 0)) ++covered;
      CAPTURE(gpu["rank"].get<int>());
      CAPTURE(cell["slot"].get<int>());
      CHECK(covered == 0);
    }
}

TEST_CASE("in presentation mode at 1280x720 the controls bar drops what does not fit instead of cutting it") {
  const Frame frame = render({"--present", "--gpus", "3", "--size", "1280x720", "--round", "2.5"});
  const auto& controls = frame.layout["panels"]["controls"];
  const int right = static_cast<int>(controls["x"].get<double>() + controls["w"].get<double>()) - 1;
  const int top = static_cast<int>(controls["y"].get<double>());
  const int first_line_bottom = top + static_cast<int>(controls["h"].get<double>() * 0.45);
  // The strip at the right end of the buttons' line holds only the panel's background.
  const Rgb background = frame.pixel(right, top + 1);
  int painted = 0;
  for (int y = top + 1; y < first_line_bottom; ++y)
    for (int x = right - 40; x <= right; ++x)
      if (!close(frame.pixel(x, y), background, 2)) ++painted;
  CHECK(painted == 0);
}
