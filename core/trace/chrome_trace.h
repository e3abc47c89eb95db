#pragma once
// A recorded collective as Chrome trace-event JSON (the "JSON Object Format"), which Perfetto
// (ui.perfetto.dev) and chrome://tracing open as a timeline.
//
// Layout: one process per GPU ("GPU 0" ...) with two tracks, "send" and "receive", since a
// GPU's link sends and receives at once; a "rounds" process above them with one slice per
// round. Every transfer is a slice on its sender's send track and one on its receiver's
// receive track (args: round, phase, src, dst, slot, kind, bytes, and what the receiver's slot
// holds afterwards), joined by a flow arrow. On each track a GPU's transfers of a round run
// back to back in schedule order, which is also the order a receiver folds them in.
//
// Times: each round lasts what the backend measured (CUDA) when every round was measured,
// otherwise what the α-β-γ model predicts on `link`; inside a round the transfers are placed
// by the model (scaled to the measured round when there is one). With a `machine` the modelled
// total is the one `ringviz compare` gives on that machine (the contention simulation, or
// NCCL's NVLS model for an algorithm that reduces in the switch), shared among the rounds as
// the link model shares it.
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/training/cost_model.h"
#include "core/trace/trace.h"

namespace ringviz {

// The modelled total of the collective on a machine (`--topology`), as `compare` prices it.
struct MachineTotal {
  std::string topology;  // the topology's key: "nvswitch:8"
  double seconds = 0;
};

struct ChromeTraceOptions {
  LinkModel link = find_link_preset("nvlink4");
  // None: the link model alone times the rounds.
  std::optional<MachineTotal> machine;
  // Use the backend's round times when every round has one.
  bool prefer_measured = true;
};

// The options for `config` on `topology` (none: the defaults), priced before anything runs so
// that a machine the algorithm cannot run on is refused first (InputError, as compare's).
ChromeTraceOptions chrome_options_on(const Config& config, const std::optional<Topology>& topology);

nlohmann::json chrome_trace_json(const Trace& trace, const ChromeTraceOptions& options = {});

// The trace events both writers build: a metadata record ("process_name", "thread_name", ...)
// and a complete slice ("ph": "X"), times in microseconds.
nlohmann::json chrome_metadata_event(const char* name, int pid, int tid, nlohmann::json args);
nlohmann::json chrome_slice_event(std::string name, const char* category, int pid, int tid, double ts, double dur,
                                  nlohmann::json args);
void write_chrome_trace(std::ostream& out, const Trace& trace, const ChromeTraceOptions& options = {});

// The same document written from a streamed run. Every event depends on whether all rounds
// were measured, known only at the end, so this keeps what the events need of each round (its
// time and what each receiver's slot holds afterwards: a label per transfer, no buffers) and
// writes the events one by one at the end, never holding the whole document.
class ChromeTraceWriter : public TraceListener {
 public:
  explicit ChromeTraceWriter(std::ostream& out, ChromeTraceOptions options = {})
      : out_(out), options_(std::move(options)) {}
  void begin(const Trace& trace) override;
  void round(const Trace& trace, const TraceRound& round) override;
  void end(const Trace& trace) override;

  struct RoundRecord {
    std::optional<double> microseconds;
    std::vector<std::string> holds;  // per transfer of the round, the receiver's slot label
  };

 private:
  std::ostream& out_;
  ChromeTraceOptions options_;
  std::vector<RoundRecord> rounds_;
};

}  // namespace ringviz
