// The topology presets, custom files and the contention simulation against closed forms
// (docs/architecture.md, "Topology and contention").
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "core/algorithms/registry.h"
#include "core/model/input_error.h"
#include "core/training/cost_model.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

using namespace ringviz;

namespace {

Config allreduce(Algorithm algorithm, int ranks, std::int64_t bytes, int slices = 1, int channels = 1) {
  return ConfigBuilder().op(Op::allreduce).algorithm(algorithm).ranks(ranks).count(bytes / 4).slices(slices)
      .channels(channels);
}

double simulated(const Config& config, const Topology& topology) {
  return estimate_cost(config, topology, false).seconds;
}

double seconds_of(const CostComparison& comparison, Algorithm algorithm) {
  for (std::size_t i = 0; i < comparison.algorithms.size(); ++i)
    if (comparison.algorithms[i] == algorithm) return comparison.at_count[i].seconds;
  FAIL("algorithm not compared");
  return 0;
}

// A star of uniform links without latency or cap: nothing is shared by a ring or rhd.
Topology uniform_star(int gpus, double alpha, double bytes_per_second, double gamma) {
  LinkModel link;
  link.key = "test";
  link.alpha_seconds = alpha;
  link.bytes_per_second = bytes_per_second;
  link.gamma_seconds_per_byte = gamma;
  return star_topology(link, gpus);
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = "/tmp/ringviz-topology-test-" + name;
  std::ofstream(path) << text;
  return path;
}

std::string refusal(const std::string& spec) {
  try {
    topology_from_spec(spec);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("on a switch where nothing is shared the simulation equals Thakur, Rabenseifner and Gropp's ring and rhd") {
  const double alpha = 1e-6, beta = 1e-9, gamma = 0.5e-9;
  const double n = 8000;  // bytes per GPU
  const double ring = 2 * 7 * alpha + 2 * 7.0 / 8 * n * beta + 7.0 / 8 * n * gamma;
  const Topology star = uniform_star(8, alpha, 1 / beta, gamma);
  CHECK(simulated(allreduce(Algorithm::ring, 8, 8000), star) == doctest::Approx(ring).epsilon(1e-9));
  CHECK(estimate_cost(allreduce(Algorithm::ring, 8, 8000), star).contention_free_seconds ==
        doctest::Approx(ring).epsilon(1e-9));
  // rhd without γ: its rounds carry several slots, and the next round may start as soon as
  // the slot it sends is folded, which the formula's lock-step rounds do not allow.
  const double rhd = 2 * 3 * alpha + 2 * 7.0 / 8 * n * beta;
  CHECK(simulated(allreduce(Algorithm::rhd, 8, 8000), uniform_star(8, alpha, 1 / beta, 0)) ==
        doctest::Approx(rhd).epsilon(1e-9));
  // With γ it is at most one slot's fold (1000 B) ahead of the formula.
  const double rhd_folding = simulated(allreduce(Algorithm::rhd, 8, 8000), star);
  CHECK(rhd_folding <= rhd + 7.0 / 8 * n * gamma + 1e-12);
  CHECK(rhd_folding >= rhd + 7.0 / 8 * n * gamma - 1000 * gamma - 1e-12);
}

TEST_CASE("nvswitch:8 with one channel reduces to the textbook ring with the channel cap as bandwidth") {
  const Topology topology = topology_preset("nvswitch:8");
  const LinkModel& nvlink = find_link_preset("nvlink4");
  const double alpha = nvlink.alpha_seconds + 2 * nvlink.hop_latency_seconds;
  const double beta = 1 / nvlink.channel_bytes_per_second;
  const double n = 1 << 20;
  const double ring = 2 * 7 * alpha + 2 * 7.0 / 8 * n * beta + 7.0 / 8 * n * nvlink.gamma_seconds_per_byte;
  CHECK(simulated(allreduce(Algorithm::ring, 8, 1 << 20), topology) == doctest::Approx(ring).epsilon(1e-9));
}

TEST_CASE("a sliced ring on uniform links keeps every link busy: 2(N-1)·S·(α + M/(N·S)·β) plus the wire latency") {
  // Each GPU sends S pieces in each of the 2(N-1) rounds one after the other on its channel's
  // worker, and the folds hide behind the next piece's transfer.
  const Topology topology = topology_preset("ring:8");
  const LinkModel& nvlink = find_link_preset("nvlink4");
  const double alpha = nvlink.alpha_seconds;
  const double beta = 1 / std::min(nvlink.bytes_per_second / 2, nvlink.channel_bytes_per_second);
  const double m = 64.0 * (1 << 20);
  for (int slices : {2, 8}) {
    CAPTURE(slices);
    const double closed = 2 * 7 * slices * (alpha + m / (8 * slices) * beta) + nvlink.hop_latency_seconds;
    CHECK(simulated(allreduce(Algorithm::ring, 8, 64 << 20, slices), topology) ==
          doctest::Approx(closed).epsilon(0.03));
  }
}

TEST_CASE("more channels help up to the link's bandwidth and then stop") {
  const Topology topology = topology_preset("nvswitch:8");
  const double one = simulated(allreduce(Algorithm::ring, 8, 256 << 20, 1, 1), topology);
  const double four = simulated(allreduce(Algorithm::ring, 8, 256 << 20, 1, 4), topology);
  const double eight = simulated(allreduce(Algorithm::ring, 8, 256 << 20, 1, 8), topology);
  const double sixteen = simulated(allreduce(Algorithm::ring, 8, 256 << 20, 1, 16), topology);
  CHECK(four < one * 0.3);  // 100 GB/s a channel: four channels carry 400 GB/s
  CHECK(eight < four);      // five fill the 450 GB/s port
  CHECK(sixteen == doctest::Approx(eight).epsilon(0.02));
}

TEST_CASE("on ring:8 at 256 MiB the ring AllReduce beats rhd and direct, whose transfers share links") {
  Config config = allreduce(Algorithm::ring, 8, 256 << 20);
  const CostComparison comparison = compare_algorithms(config, topology_preset("ring:8"));
  CHECK(seconds_of(comparison, Algorithm::ring) < seconds_of(comparison, Algorithm::rhd));
  CHECK(seconds_of(comparison, Algorithm::ring) < seconds_of(comparison, Algorithm::direct));
}

TEST_CASE("on nvswitch:8 rhd wins at 4 KiB and stays within 10% of the ring at 256 MiB") {
  const Topology topology = topology_preset("nvswitch:8");
  const CostComparison small = compare_algorithms(allreduce(Algorithm::ring, 8, 4096), topology);
  CHECK(seconds_of(small, Algorithm::rhd) < seconds_of(small, Algorithm::ring));
  const CostComparison large = compare_algorithms(allreduce(Algorithm::ring, 8, 256 << 20), topology);
  CHECK(seconds_of(large, Algorithm::rhd) <= seconds_of(large, Algorithm::ring) * 1.10);
  CHECK(seconds_of(large, Algorithm::rhd) >= seconds_of(large, Algorithm::ring) * 0.90);
}

TEST_CASE("the crossovers of a topology comparison are where the sweep's fastest algorithm changes") {
  const CostComparison comparison = compare_algorithms(allreduce(Algorithm::ring, 8, 1 << 20), topology_preset("ring:8"));
  REQUIRE_FALSE(comparison.crossovers.empty());
  for (const Crossover& crossover : comparison.crossovers) {
    const auto at = [&](Algorithm algorithm, std::int64_t bytes) {
      return simulated(allreduce(algorithm, 8, bytes), comparison.topology);
    };
    CHECK(at(crossover.faster, crossover.bytes) <= at(crossover.slower, crossover.bytes) * (1 + 1e-6));
    CHECK(at(crossover.slower, crossover.bytes - 4) <= at(crossover.faster, crossover.bytes - 4) * (1 + 1e-6));
  }
  // Every sweep sample's winner is the one the crossovers say holds at that size.
  for (std::size_t i = 0; i < comparison.sweep_bytes.size(); ++i) {
    Algorithm expected = comparison.sweep_fastest.front();
    for (const Crossover& crossover : comparison.crossovers)
      if (crossover.bytes <= comparison.sweep_bytes[i]) expected = crossover.faster;
    CHECK(comparison.sweep_fastest[i] == expected);
  }
}

TEST_CASE("ring:N routes other pairs the short way round over the GPUs between") {
  const Topology topology = topology_preset("ring:8");
  const Routes routes(topology);
  CHECK(routes.route(0, 1).size() == 1);
  CHECK(routes.route(0, 3).size() == 3);
  CHECK(routes.route(0, 6).size() == 2);
  CHECK(topology.links.size() == 16);
}

TEST_CASE("pcie and nodes presets share their uplinks") {
  const Topology pcie = topology_preset("pcie:8");
  const Routes pcie_routes(pcie);
  CHECK(pcie_routes.route(0, 1).size() == 2);  // under one switch
  CHECK(pcie_routes.route(0, 7).size() == 4);  // up to the root and down
  const Topology nodes = topology_preset("nodes:2x8");
  CHECK(nodes.gpus == 16);
  const Routes node_routes(nodes);
  CHECK(node_routes.route(0, 1).size() == 2);
  CHECK(node_routes.route(0, 8).size() == 4);  // NVSwitch, the machine's NIC, the network, back in
  const Topology rail = topology_preset("nodes-rail:2x8");
  const Routes rail_routes(rail);
  CHECK(rail_routes.route(0, 1).size() == 2);  // NVSwitch, not the network
  CHECK(rail.links[static_cast<std::size_t>(rail_routes.route(0, 1)[0])].link_class == "nvlink4");
  CHECK(rail_routes.route(0, 8).size() == 2);  // each GPU's own NIC
  // One NIC per machine is the bottleneck of a ring across both machines.
  CHECK(simulated(allreduce(Algorithm::ring, 16, 64 << 20), nodes) >
        simulated(allreduce(Algorithm::ring, 16, 64 << 20), rail));
}

TEST_CASE("unknown presets and sizes are refused naming the forms") {
  CHECK(refusal("mesh:8").find("--topology: unknown topology 'mesh:8' (expected nvswitch:N") == 0);
  CHECK(refusal("ring:0") != "");
  CHECK(refusal("ring:257") != "");
  CHECK(refusal("nodes:2x") != "");
  CHECK(refusal("nodes:64x8") != "");
}

TEST_CASE("a custom topology file is read with switches, one-way links and a channel cap") {
  const std::string path = write_file("ok.json", R"({
  "gpus": 2, "switches": ["hub"],
  "links": [{"from": "gpu0", "to": "hub", "bytes_per_second": 1e9, "latency_seconds": 1e-6, "class": "slow",
             "channel_bytes_per_second": 5e8},
            {"from": "gpu1", "to": "hub", "bytes_per_second": 2e9},
            {"from": "gpu1", "to": "gpu0", "bytes_per_second": 4e9, "duplex": false}]
})");
  const Topology topology = topology_from_spec(path);
  CHECK(topology.gpus == 2);
  CHECK(topology.links.size() == 5);
  CHECK(topology.links[0].link_class == "slow");
  CHECK(topology.links[0].channel_bytes_per_second == 5e8);
  const Routes routes(topology);
  CHECK(routes.route(1, 0).size() == 1);
  CHECK(routes.route(0, 1).size() == 2);
  std::remove(path.c_str());
}

TEST_CASE("custom topology files are refused at the line and column of the field at fault") {
  const auto refused = [](const std::string& name, const std::string& text) {
    const std::string path = write_file(name, text);
    std::string message = refusal(path);
    std::remove(path.c_str());
    return message.substr(message.find(".json") + 5);
  };
  CHECK(refused("bw.json", "{\"gpus\": 2,\n \"links\": [{\"from\": \"gpu0\", \"to\": \"gpu1\", \"bytes_per_second\": -1}]}") ==
        ":2:63: links/0/bytes_per_second: expected a number above 0");
  CHECK(refused("name.json", "{\"gpus\": 2,\n \"links\": [{\"from\": \"gpu0\", \"to\": \"gpu9\", \"bytes_per_second\": 1}]}") ==
        ":2:35: links/0/to: no GPU or switch named 'gpu9' (GPUs are gpu0 to gpu1; switches are listed under switches)");
  CHECK(refused("field.json", "{\"gpus\": 2,\n \"links\": [{\"from\": \"gpu0\", \"to\": \"gpu1\", \"speed\": 1}]}") ==
        ":2:52: links/0/speed: unknown field 'speed' (expected from, to, bytes_per_second, latency_seconds, "
        "alpha_seconds, class, channel_bytes_per_second, duplex)");
  CHECK(refused("apart.json", "{\"gpus\": 3,\n \"links\": [{\"from\": \"gpu0\", \"to\": \"gpu1\", \"bytes_per_second\": 1}]}") ==
        ": no route from GPU 0 to GPU 2; add a link between them");
  CHECK(refused("syntax.json", "{\"gpus\": 2,\n \"links\": [}") .find(":2:") == 0);
}
