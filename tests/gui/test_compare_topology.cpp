// The Compare tab on a topology, without a window: the selector's machines, the sentence under
// the plot, the link view's per-step loads, and the worker that computes the comparison.
#include <doctest/doctest.h>

#include <string>

#include "app/gui/compare/compare_sentence.h"
#include "app/gui/compare/comparison_job.h"
#include "app/gui/compare/topology_choice.h"
#include "app/gui/compare/topology_picture.h"
#include "app/gui/text/strings.h"
#include "core/algorithms/registry.h"
#include "core/schedule/schedule.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

using namespace ringviz;
using namespace ringviz::gui;

namespace {

Config allreduce_on(int gpus, Algorithm algorithm = Algorithm::ring) {
  return ConfigBuilder().op(Op::allreduce).algorithm(algorithm).ranks(gpus).count(1024);
}

bool says(const std::string& sentence, const std::string& words) { return sentence.find(words) != std::string::npos; }

}  // namespace

TEST_CASE("the topology selector sizes every kind by the setup panel's GPUs") {
  CHECK(TopologyChoice{"ring"}.spec_for_gpus(8) == "ring:8");
  CHECK(TopologyChoice{"nvswitch"}.spec_for_gpus(16) == "nvswitch:16");
  CHECK(TopologyChoice{"nodes"}.spec_for_gpus(16) == "nodes:2x8");
  CHECK(TopologyChoice{"nodes-rail"}.spec_for_gpus(5) == "nodes-rail:1x5");
  CHECK(TopologyChoice{"star"}.spec_for_gpus(8).empty());
  CHECK(topology_kind_of("pcie:8") == "pcie");
  CHECK(topology_kind_of("nodes-rail") == "nodes-rail");
  CHECK(topology_kind_of("torus:8").empty());
  for (const std::string& kind : topology_kinds())
    for (int gpus = 1; gpus <= 16; ++gpus) {
      const TopologyChoice choice{kind};
      if (choice.is_star()) continue;
      CAPTURE(choice.spec_for_gpus(gpus));
      CHECK(topology_preset(choice.spec_for_gpus(gpus)).gpus == gpus);
    }
}

TEST_CASE("sizes are said whole when they are powers of two and to three digits otherwise") {
  CHECK(size_words(1024) == "1 KiB");
  CHECK(size_words(std::int64_t{1} << 30) == "1 GiB");
  CHECK(size_words(96 * 1024) == "96 KiB");
  CHECK(size_words(3 * 512 * 1024) == "1.5 MiB");
  CHECK(size_words(100000) == "97.7 KiB");
}

TEST_CASE("the sentence under the plot names the algorithms the plot's data says are fastest on ring:8 and nvswitch:8") {
  for (const char* spec : {"ring:8", "nvswitch:8"}) {
    CAPTURE(spec);
    const CostComparison comparison = compare_algorithms(allreduce_on(8), topology_preset(spec));
    REQUIRE(!comparison.sweep_fastest.empty());
    const std::string first(algorithm_name(comparison.sweep_fastest.front()));
    const std::string last(algorithm_name(comparison.sweep_fastest.back()));
    for (Language language : {Language::en, Language::zh}) {
      const std::string sentence = comparison_sentence(comparison, ui_strings_for(language));
      CAPTURE(sentence);
      CHECK(says(sentence, spec));
      CHECK(says(sentence, first));
      CHECK(says(sentence, last));
      for (const Crossover& crossover : comparison.crossovers) {
        CHECK(says(sentence, std::string(algorithm_name(crossover.faster))));
        CHECK(says(sentence, size_words(crossover.bytes)));
      }
    }
    // In English the smallest size's winner comes first and the largest size's last.
    const std::string english = comparison_sentence(comparison, ui_strings_for(Language::en));
    CHECK(english.rfind("On " + std::string(spec) + ", " + first + " is the fastest", 0) == 0);
    if (comparison.crossovers.empty()) CHECK(first == last);
    else CHECK(says(english, "at 1 GiB, " + last + " is the fastest."));
  }
}

TEST_CASE("the link view's step: the ring on ring:8 has a link of its own per transfer, direct on nvswitch:8 shares every port") {
  {
    const Config config = allreduce_on(8);
    const CostComparison comparison = compare_algorithms(config, topology_preset("ring:8"));
    const Routes routes(comparison.topology);
    const TopologyStepPicture picture = topology_step_picture(comparison, routes, make_schedule(config), config.algorithm, 0);
    CHECK(picture.busy_links == 8);
    CHECK(picture.shared_links == 0);
    CHECK(picture.step_top_bytes == doctest::Approx(1024.0 * 4 / 8));
  }
  {
    const Config config = allreduce_on(8, Algorithm::direct);
    const CostComparison comparison = compare_algorithms(config, topology_preset("nvswitch:8"));
    const Routes routes(comparison.topology);
    const TopologyStepPicture picture = topology_step_picture(comparison, routes, make_schedule(config), config.algorithm, 0);
    CHECK(picture.busy_links == 16);  // every GPU's port, both ways
    CHECK(picture.shared_links == 16);
    for (const StepLinkLoad& load : picture.loads) CHECK(load.transfers == 7);
    CHECK(picture.top_bytes >= picture.step_top_bytes);
  }
}

TEST_CASE("the comparison job keeps its answer until the question changes, and answers a new one") {
  ComparisonJob job;
  const ComparisonQuestion ring{allreduce_on(8), "ring:8", "nvlink4"};
  const ComparisonAnswer* first = job.answer(ring, true);
  REQUIRE(first != nullptr);
  REQUIRE(first->comparison.has_value());
  CHECK(first->comparison->topology.key == "ring:8");
  CHECK(job.answer(ring, false) == first);
  const ComparisonQuestion star{allreduce_on(8), "", "pcie5"};
  job.answer(star, false);  // starts the worker; its answer may or may not be there yet
  const ComparisonAnswer* second = job.answer(star, true);
  REQUIRE(second != nullptr);
  REQUIRE(second->comparison.has_value());
  CHECK(second->comparison->link.key == "pcie5");
  const ComparisonQuestion wrong{allreduce_on(8), "ring:4", "nvlink4"};
  const ComparisonAnswer* refused = job.answer(wrong, true);
  REQUIRE(refused != nullptr);
  CHECK_FALSE(refused->comparison.has_value());
  CHECK(refused->error.find("--gpus") != std::string::npos);
}
