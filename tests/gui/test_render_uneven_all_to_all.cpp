// An AllToAll with uneven splits rendered headless: every GPU's box holds an N x N grid of
// (sender, receiver) slots, a sender per row; a GPU starts with its row, ends with its column,
// each cell labelled and coloured by the GPU whose block it holds.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "render_harness.h"

using namespace ringviz::gui_test;

namespace {

// Row s: what GPU s sends GPUs 0, 1, 2. GPU 0 sends nothing to GPU 2, GPU 2 nothing to GPU 0.
const std::vector<std::string> kUneven = {"--size", "1280x720", "--op", "alltoall", "--gpus", "3",
                                          "--splits", "2,3,0/1,0,4/0,2,1"};

std::vector<std::string> at_round(const std::string& round) {
  std::vector<std::string> arguments = kUneven;
  arguments.insert(arguments.end(), {"--round", round});
  return arguments;
}

// Rank letters as labels name senders: a, b, c.
std::string letter(int rank) { return std::string(1, static_cast<char>('a' + rank)); }

}  // namespace

TEST_CASE("uneven AllToAll: each box is an N x N grid of slots, a sender per row, a receiver per column") {
  const Frame frame = render(at_round("0"), Capture::layout_only);
  const auto& gpus = frame.layout["gpus"];
  REQUIRE(gpus.size() == 3u);
  for (const auto& gpu : gpus) {
    const auto& cells = gpu["cells"];
    REQUIRE(cells.size() == 9u);
    for (int slot = 0; slot < 9; ++slot) {
      CAPTURE(slot);
      const auto& rect = cells[static_cast<std::size_t>(slot)]["rect"];
      const auto& first_in_row = cells[static_cast<std::size_t>(slot / 3 * 3)]["rect"];
      const auto& first_in_column = cells[static_cast<std::size_t>(slot % 3)]["rect"];
      CHECK(rect["y"].get<double>() == first_in_row["y"].get<double>());   // one row per sender
      CHECK(rect["x"].get<double>() == first_in_column["x"].get<double>());  // one column per receiver
    }
  }
  // Before the first round GPU r holds its own row alone, labelled sender + receiver.
  for (int rank = 0; rank < 3; ++rank)
    for (int slot = 0; slot < 9; ++slot) {
      const auto& cell = gpus[static_cast<std::size_t>(rank)]["cells"][static_cast<std::size_t>(slot)];
      CAPTURE(rank);
      CAPTURE(slot);
      CHECK((cell["state"] == "empty") == (slot / 3 != rank));
      if (slot / 3 == rank) CHECK(cell["label"] == letter(rank) + std::to_string(slot % 3));
    }
  CHECK(frame.layout["missing_glyphs"].empty());
}

TEST_CASE("uneven AllToAll: at the end each GPU holds its column too, each cell in its sender's colour") {
  const Frame frame = render(at_round("3"));
  const auto& gpus = frame.layout["gpus"];
  for (int rank = 0; rank < 3; ++rank)
    for (int slot = 0; slot < 9; ++slot) {
      const int sender = slot / 3, receiver = slot % 3;
      const auto& cell = gpus[static_cast<std::size_t>(rank)]["cells"][static_cast<std::size_t>(slot)];
      CAPTURE(rank);
      CAPTURE(slot);
      const bool held = sender == rank || receiver == rank;
      CHECK((cell["state"] == "empty") == !held);
      if (!held) continue;
      CHECK(cell["label"] == letter(sender) + std::to_string(receiver));
      CHECK(cell["contributors"] == nlohmann::json::array({sender}));
      // The cell's colour (above its label band, at its centre) is the sender's.
      const Rgb colour = frame.pixel_at(cell["centre"][0].get<double>(), cell["centre"][1].get<double>());
      const Rgb want = frame.rank_colour(sender);
      INFO("centre is " << to_string(colour) << ", GPU " << sender << "'s colour " << to_string(want));
      CHECK(std::abs(colour.r - want.r) < 40);
      CHECK(std::abs(colour.g - want.g) < 40);
      CHECK(std::abs(colour.b - want.b) < 40);
    }
}

TEST_CASE("uneven AllToAll: the transfers table names each slot's pair, and the traffic panel no formula") {
  const Frame frame = render(at_round("1"), Capture::layout_only);
  bool pair_named = false, uneven_words = false, even_formula = false;
  for (const auto& text : frame.layout["texts"]) {
    const std::string s = text["text"];
    pair_named |= s == "5 (1->2)";
    uneven_words |= s.find("The blocks differ in size") != std::string::npos;
    even_formula |= s.find("(N-1)/N") != std::string::npos;
  }
  CHECK(pair_named);
  CHECK(uneven_words);
  CHECK_FALSE(even_formula);
}
