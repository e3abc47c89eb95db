// The pipelined ring view's logic, without GL: which slices a wave has in flight, where their
// markers ride, and the setup panel's switch between lock-step rounds and the pipeline.
#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <tuple>

#include "app/gui/layout/ring_geometry.h"
#include "app/gui/layout/switch_geometry.h"
#include "app/gui/panels/setup_panel.h"
#include "app/gui/pipeline/pipeline_markers.h"
#include "app/gui/pipeline/wave_summary.h"
#include "core/algorithms/registry.h"
#include "core/schedule/schedule.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

using namespace ringviz;
using namespace ringviz::gui;

namespace {

Config ring_config(int ranks, int slices, int channels) {
  return ConfigBuilder().ranks(ranks).count(64).slices(slices).channels(channels);
}

float distance(Vec2 a, Vec2 b) { return std::hypot(a.x - b.x, a.y - b.y); }

// How close `path` comes to `point`, sampled along it.
float nearest_on(const ArrowPath& path, Vec2 point) {
  float nearest = 1e9f;
  for (int i = 0; i <= 200; ++i) nearest = std::min(nearest, distance(path.at(i / 200.0f), point));
  return nearest;
}

}  // namespace

TEST_CASE("a 4-GPU AllReduce with 4 slices fills for 3 waves, runs full for 3 and drains for 3") {
  const Schedule schedule = make_schedule(ring_config(4, 4, 2));
  const SlotLayout layout = make_layout(ring_config(4, 4, 2));
  REQUIRE(schedule.round_count() == 6 + 4 - 1);
  const int in_flight[] = {1, 2, 3, 4, 4, 4, 3, 2, 1};
  const WaveStage stages[] = {WaveStage::filling, WaveStage::filling, WaveStage::filling,
                              WaveStage::full,    WaveStage::full,    WaveStage::full,
                              WaveStage::draining, WaveStage::draining, WaveStage::draining};
  for (int wave = 1; wave <= 9; ++wave) {
    CAPTURE(wave);
    const WaveSummary summary = summarise_wave(schedule, layout, wave);
    CHECK(summary.wave == wave);
    CHECK(summary.waves == 9);
    CHECK(summary.in_flight == in_flight[wave - 1]);
    CHECK(summary.stage == stages[wave - 1]);
  }
  // Wave 4 carries rounds 0..3: the reduce-scatter's three and the all-gather's first.
  CHECK(summarise_wave(schedule, layout, 4).reduce_scatter);
  CHECK(summarise_wave(schedule, layout, 4).all_gather);
  CHECK_FALSE(summarise_wave(schedule, layout, 1).all_gather);
}

TEST_CASE("slices without elements do not fill a pipeline, and a wave of them alone is idle") {
  // count 8 on 4 GPUs with 2 channels x 4 slices: slots of 2 elements, so only slice 0 of each
  // channel holds one; slices 1 to 3 ride along carrying 0 B.
  Config config = ring_config(4, 4, 2);
  config.count = 8;
  const Schedule schedule = make_schedule(config);
  const SlotLayout layout = make_layout(config);
  REQUIRE(schedule.round_count() == 9);
  for (int wave = 1; wave <= 6; ++wave) {
    CAPTURE(wave);
    const WaveSummary summary = summarise_wave(schedule, layout, wave);
    CHECK(summary.in_flight == 1);
    CHECK(summary.capacity == 1);
  }
  for (int wave = 7; wave <= 9; ++wave) {
    CAPTURE(wave);
    CHECK(summarise_wave(schedule, layout, wave).in_flight == 0);
    CHECK(summarise_wave(schedule, layout, wave).stage == WaveStage::idle);
  }
  // Three elements per slot: channel 0 holds two, so two slices can be in flight at most.
  config.count = 12;
  CHECK(summarise_wave(make_schedule(config), make_layout(config), 4).capacity == 2);
}

TEST_CASE("with more slices than rounds the pipeline is full while every round is in flight") {
  // 2 GPUs AllReduce: 2 rounds; 4 slices make 5 waves holding 1, 2, 2, 2, 1 slices per link.
  const Schedule schedule = make_schedule(ring_config(2, 4, 1));
  const SlotLayout layout = make_layout(ring_config(2, 4, 1));
  REQUIRE(schedule.round_count() == 5);
  CHECK(summarise_wave(schedule, layout, 1).stage == WaveStage::filling);
  for (int wave = 2; wave <= 4; ++wave) CHECK(summarise_wave(schedule, layout, wave).stage == WaveStage::full);
  CHECK(summarise_wave(schedule, layout, 5).stage == WaveStage::draining);
}

TEST_CASE("a lock-step schedule is not pipelined, one slice or one channel more makes it so") {
  CHECK_FALSE(is_pipelined(make_schedule(ring_config(4, 1, 1))));
  CHECK(is_pipelined(make_schedule(ring_config(4, 2, 1))));
  CHECK(is_pipelined(make_schedule(ring_config(4, 1, 2))));
}

TEST_CASE("every transfer of a wave gets a marker on its own link, slices in a train and channels in lanes") {
  const RingGeometry geometry = layout_ring({0, 0, 1000, 700}, 4, 13.0f);
  const Schedule schedule = make_schedule(ring_config(4, 4, 2));
  const std::vector<PipelineMarker> markers = place_markers(geometry, schedule, 3, kAllChannels, 0.5f, 14.0f);
  // Wave 3: slices 0, 1, 2 of rounds 2, 1, 0, on 4 links and 2 channels.
  REQUIRE(markers.size() == 4u * 2u * 3u);
  std::set<std::tuple<int, int, int>> seen;
  for (const PipelineMarker& marker : markers) {
    CAPTURE(marker.src);
    CAPTURE(marker.slice);
    CHECK(marker.dst == (marker.src + 1) % 4);
    CHECK(marker.round + marker.slice == 2);
    // Seed order, reduce-scatter: rank r sends slot r - t at round t.
    CHECK(marker.slot == ((marker.src - marker.round) % 4 + 4) % 4);
    seen.insert({marker.src, marker.channel, marker.slice});
    // Near the link's arrow: within two lanes of it.
    const ArrowPath& arrow = geometry.arrows[static_cast<std::size_t>(marker.src)];
    float nearest = 1e9f;
    for (int i = 0; i <= 100; ++i) nearest = std::min(nearest, distance(arrow.at(i / 100.0f), marker.box.centre()));
    CHECK(nearest <= marker.box.w * 1.3f);
  }
  CHECK(seen.size() == markers.size());
  // On one link: slice 0 leads, slice 2 trails; channel 1 rides beside channel 0, not on it.
  auto find = [&](int src, int channel, int slice) {
    for (const PipelineMarker& marker : markers)
      if (marker.src == src && marker.channel == channel && marker.slice == slice) return marker.box;
    FAIL("no marker");
    return Rect{};
  };
  const ArrowPath& arrow = geometry.arrows[0];
  const Vec2 head = arrow.points.back();
  CHECK(distance(find(0, 0, 0).centre(), head) < distance(find(0, 0, 2).centre(), head));
  for (int slice = 0; slice < 3; ++slice) {
    const Rect a = find(0, 0, slice), b = find(0, 1, slice);
    CHECK_FALSE(a.overlaps(b));
    CHECK(distance(a.centre(), b.centre()) < a.w * 1.5f);
  }
  // Markers of one lane never overlap.
  for (const PipelineMarker& a : markers)
    for (const PipelineMarker& b : markers)
      if (&a != &b && a.src == b.src && a.channel == b.channel) CHECK_FALSE(a.box.overlaps(b.box));
}

TEST_CASE("through a reducing switch (nvls) every marker rides its GPU's spoke, slices in a train, channels in lanes") {
  const RingGeometry geometry = layout_ring({0, 0, 1000, 700}, 8, 13.0f);
  const SwitchGeometry in_switch = layout_switch(geometry, {0, 0, 1000, 700}, 13.0f);
  REQUIRE(in_switch.fits);
  const Schedule schedule =
      make_schedule(ConfigBuilder().algorithm(Algorithm::nvls).op(Op::allreduce).ranks(8).count(64).slices(4).channels(2));
  REQUIRE(schedule.through_switch);
  REQUIRE(schedule.round_count() == 2 + 4 - 1);
  // Wave 2: slice 1 of the reducing round and slice 0 of the multicast, mid-way.
  const std::vector<PipelineMarker> markers =
      place_markers(geometry, schedule, 2, kAllChannels, 0.5f, 14.0f, false, &in_switch);
  REQUIRE(markers.size() == 2u * 8u * 7u * 2u);
  for (const PipelineMarker& marker : markers) {
    CAPTURE(marker.src);
    CAPTURE(marker.dst);
    CAPTURE(marker.channel);
    const bool reduce = marker.kind == TransferKind::reduce;
    CHECK(marker.slice == (reduce ? 1 : 0));
    // The sender's way in while reducing, the receiver's way out on the multicast: within its
    // lane of the spoke.
    const ArrowPath& spoke = reduce ? in_switch.up[static_cast<std::size_t>(marker.src)]
                                    : in_switch.down[static_cast<std::size_t>(marker.dst)];
    CHECK(nearest_on(spoke, marker.box.centre()) <= marker.box.w * 1.3f);
  }
  // One spoke carries both channels side by side, not on one another.
  auto find = [&](int src, int channel) {
    for (const PipelineMarker& marker : markers)
      if (marker.src == src && marker.dst == (src + 4) % 8 && marker.channel == channel &&
          marker.kind == TransferKind::reduce)
        return marker.box;
    FAIL("no marker");
    return Rect{};
  };
  CHECK_FALSE(find(2, 0).overlaps(find(2, 1)));
  // Without the switch the same wave crosses the ring on curves between the GPUs, most of them
  // off every spoke.
  const std::vector<PipelineMarker> direct = place_markers(geometry, schedule, 2, kAllChannels, 0.5f, 14.0f);
  REQUIRE(direct.size() == markers.size());
  int off_spoke = 0;
  for (const PipelineMarker& marker : direct) {
    const ArrowPath& spoke = marker.kind == TransferKind::reduce ? in_switch.up[static_cast<std::size_t>(marker.src)]
                                                                 : in_switch.down[static_cast<std::size_t>(marker.dst)];
    off_spoke += nearest_on(spoke, marker.box.centre()) > marker.box.w * 1.3f ? 1 : 0;
  }
  CHECK(off_spoke > static_cast<int>(direct.size()) / 2);
}

TEST_CASE("showing one channel leaves the others' markers out and puts that channel on the arrow") {
  const RingGeometry geometry = layout_ring({0, 0, 1000, 700}, 4, 13.0f);
  const Schedule schedule = make_schedule(ring_config(4, 2, 8));
  const std::vector<PipelineMarker> markers = place_markers(geometry, schedule, 2, 5, 0.0f, 14.0f);
  REQUIRE(markers.size() == 4u * 2u);
  for (const PipelineMarker& marker : markers) CHECK(marker.channel == 5);
}

TEST_CASE("switching to lock-step and back restores the slices and channels last used") {
  Config config = ring_config(4, 1, 1);
  SetupPanel panel(config, BackendChoice::cpu);
  // First time pipelined: 4 slices on 2 channels.
  Config pipelined = panel.with_pipeline_toggled(config);
  CHECK(pipelined.slices == 4);
  CHECK(pipelined.channels == 2);
  pipelined.slices = 7;
  pipelined.channels = 3;
  panel.accepted(pipelined, BackendChoice::cpu);
  const Config lock_step = panel.with_pipeline_toggled(panel.draft());
  CHECK(lock_step.slices == 1);
  CHECK(lock_step.channels == 1);
  panel.accepted(lock_step, BackendChoice::cpu);
  const Config back = panel.with_pipeline_toggled(panel.draft());
  CHECK(back.slices == 7);
  CHECK(back.channels == 3);
  CHECK(back.ranks == 4);
}
