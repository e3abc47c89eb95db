// DrawBatch: a frame's draw lists handed to ImGui's OpenGL3 backend as a few lists, each list's
// vertices copied once, commands repeated per redrawn rectangle and clipped to it
// (docs/architecture.md, "Frame time"). The pixels it gives are checked against whole redraws
// in test_frame_damage.cpp; these cases check what it hands the backend.
#include <doctest/doctest.h>

#include <vector>

#include <imgui.h>

#include "app/gui/render/draw_batch.h"

namespace ringviz::gui {
namespace {

// A draw list of `vertices` vertices (x = its index, so a copy can be traced) and one command
// per clip rectangle, each drawing one triangle of the list.
struct SourceList {
  ImDrawList list{nullptr};
  SourceList(int vertices, const std::vector<ImVec4>& clips) {
    for (int v = 0; v < vertices; ++v) list.VtxBuffer.push_back(ImDrawVert{ImVec2(static_cast<float>(v), 0), ImVec2(0, 0), 0});
    for (const ImVec4& clip : clips) {
      ImDrawCmd command;
      command.ClipRect = clip;
      command.IdxOffset = static_cast<unsigned>(list.IdxBuffer.Size);
      command.ElemCount = 3;
      for (int i = 0; i < 3; ++i) list.IdxBuffer.push_back(static_cast<ImDrawIdx>(i % vertices));
      list.CmdBuffer.push_back(command);
    }
  }
};

ImDrawData frame_of(std::vector<ImDrawList*>& lists) {
  ImDrawData data{};
  data.Valid = true;
  data.CmdLists = lists.data();
  data.CmdListsCount = static_cast<int>(lists.size());
  data.DisplaySize = ImVec2(1000, 800);
  data.FramebufferScale = ImVec2(1, 1);
  return data;
}

void noop_callback(const ImDrawList*, const ImDrawCmd*) {}

TEST_CASE("draw batch: each list's vertices once, its commands once per rectangle it reaches, clipped to it") {
  SourceList panel(4, {ImVec4(0, 0, 1000, 800)});   // reaches both rectangles
  SourceList ring(5, {ImVec4(600, 100, 900, 400)});  // only the second
  std::vector<ImDrawList*> lists{&panel.list, &ring.list};
  const ImDrawData frame = frame_of(lists);
  const std::vector<PixelRect> bounds{{0, 0, 1000, 800}, {600, 100, 900, 400}};
  const std::vector<PixelRect> rects{{0, 0, 100, 50}, {700, 200, 800, 300}};
  DrawBatch batch;
  const ImDrawData& out = batch.rectangles(frame, bounds, rects, 800);
  REQUIRE(out.CmdListsCount == 1);
  const ImDrawList& merged = *out.CmdLists[0];
  CHECK(merged.VtxBuffer.Size == 9);
  CHECK(out.TotalVtxCount == 9);
  // The ring's indices point at its own vertices, after the panel's.
  REQUIRE(merged.IdxBuffer.Size == 6);
  CHECK(merged.IdxBuffer[3] == 4);
  CHECK(merged.VtxBuffer[merged.IdxBuffer[4]].pos.x == 1.0f);
  // Rectangle by rectangle, in the lists' order: panel in the first; panel, ring in the second.
  REQUIRE(merged.CmdBuffer.Size == 3);
  CHECK(merged.CmdBuffer[0].ClipRect.x == 0);
  CHECK(merged.CmdBuffer[0].ClipRect.z == 100);
  CHECK(merged.CmdBuffer[0].ClipRect.w == 50);
  CHECK(merged.CmdBuffer[0].IdxOffset == 0);
  CHECK(merged.CmdBuffer[1].ClipRect.x == 700);
  CHECK(merged.CmdBuffer[1].IdxOffset == 0);
  CHECK(merged.CmdBuffer[2].ClipRect.x == 700);
  CHECK(merged.CmdBuffer[2].ClipRect.y == 200);
  CHECK(merged.CmdBuffer[2].IdxOffset == 3);
  CHECK(merged.CmdBuffer[2].ElemCount == 3);
}

TEST_CASE("draw batch: a list that reaches no rectangle is left out, and so is a command outside its rectangle") {
  SourceList left(3, {ImVec4(0, 0, 100, 100), ImVec4(500, 500, 600, 600)});
  SourceList far(3, {ImVec4(900, 700, 1000, 800)});
  std::vector<ImDrawList*> lists{&left.list, &far.list};
  const ImDrawData frame = frame_of(lists);
  DrawBatch batch;
  const ImDrawData& out = batch.rectangles(frame, {{0, 0, 600, 600}, {900, 700, 1000, 800}}, {{0, 0, 50, 50}}, 800);
  REQUIRE(out.CmdListsCount == 1);
  CHECK(out.CmdLists[0]->VtxBuffer.Size == 3);
  REQUIRE(out.CmdLists[0]->CmdBuffer.Size == 1);
  CHECK(out.CmdLists[0]->CmdBuffer[0].ClipRect.z == 50);
}

TEST_CASE("draw batch: a callback that draws by itself sees the rectangle it is repeated for as the damage limit") {
  SourceList cells(3, {ImVec4(0, 0, 1000, 800)});
  ImDrawCmd callback;
  callback.UserCallback = &noop_callback;
  cells.list.CmdBuffer.push_back(callback);
  std::vector<ImDrawList*> lists{&cells.list};
  const ImDrawData frame = frame_of(lists);
  const std::vector<PixelRect> rects{{0, 0, 10, 10}, {20, 20, 30, 30}};
  DrawBatch batch;
  const ImDrawData& out = batch.rectangles(frame, {{0, 0, 1000, 800}}, rects, 800);
  REQUIRE(out.CmdListsCount == 1);
  const ImVector<ImDrawCmd>& commands = out.CmdLists[0]->CmdBuffer;
  // draw, limit(first), callback, draw, limit(second), callback, limit(none)
  REQUIRE(commands.Size == 7);
  const auto limit_after = [&](int at) {
    commands[at].UserCallback(out.CmdLists[0], &commands[at]);
    return damage_limit();
  };
  CHECK((commands[2].UserCallback == &noop_callback));
  CHECK(limit_after(1) == &rects[0]);
  CHECK((commands[5].UserCallback == &noop_callback));
  CHECK(limit_after(4) == &rects[1]);
  CHECK(limit_after(6) == nullptr);
}

TEST_CASE("draw batch: lists are joined only up to what a 16-bit index reaches") {
  SourceList first(40000, {ImVec4(0, 0, 1000, 800)});
  SourceList second(40000, {ImVec4(0, 0, 1000, 800)});
  SourceList third(100, {ImVec4(0, 0, 1000, 800)});
  std::vector<ImDrawList*> lists{&first.list, &second.list, &third.list};
  const ImDrawData frame = frame_of(lists);
  DrawBatch batch;
  const ImDrawData& out = batch.whole(frame);
  REQUIRE(out.CmdListsCount == 2);
  CHECK(out.CmdLists[0]->VtxBuffer.Size == 40000);
  CHECK(out.CmdLists[1]->VtxBuffer.Size == 40100);
  CHECK(out.CmdLists[1]->IdxBuffer[3] == 40000);
  CHECK(out.TotalVtxCount == 80100);
  // A whole frame keeps every clip rectangle as it was.
  CHECK(out.CmdLists[1]->CmdBuffer[1].ClipRect.z == 1000);
  CHECK(out.CmdLists[1]->CmdBuffer[1].IdxOffset == 3);
}

TEST_CASE("draw batch: the next frame reuses the lists and starts empty") {
  SourceList one(3, {ImVec4(0, 0, 10, 10)});
  std::vector<ImDrawList*> lists{&one.list};
  const ImDrawData frame = frame_of(lists);
  DrawBatch batch;
  batch.whole(frame);
  const ImDrawData& again = batch.whole(frame);
  REQUIRE(again.CmdListsCount == 1);
  CHECK(again.CmdLists[0]->VtxBuffer.Size == 3);
  CHECK(again.CmdLists[0]->CmdBuffer.Size == 1);
}

}  // namespace
}  // namespace ringviz::gui
