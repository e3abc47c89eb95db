#include "core/job/job_document.h"

#include <cmath>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "core/algorithms/registry.h"
#include "core/input/document_reader.h"
#include "core/input/json_input.h"
#include "core/kineto/collective_names.h"
#include "core/run/run_validate.h"

namespace ringviz {
namespace {

using ordered = nlohmann::ordered_json;
using nlohmann::json;

ordered collective_json(const Run& run, const CollectiveInstance& instance, int sequence) {
  ordered out;
  out["op"] = op_name(instance.op);
  out["group"] = run.groups[static_cast<std::size_t>(instance.group)].name;
  out["sequence"] = sequence;
  out["count"] = instance.count;
  out["dtype"] = dtype_name(instance.dtype);
  out["bytes"] = instance.count * static_cast<std::int64_t>(dtype_size(instance.dtype));
  out["reduce"] = reduce_op_name(instance.reduce);
  if (instance.root) out["root"] = *instance.root;
  if (instance.peer) out["peer"] = *instance.peer;
  if (!instance.in_splits.empty()) {
    out["in_splits"] = instance.in_splits;
    out["out_splits"] = instance.out_splits;
  }
  out["ringviz_algorithm"] = algorithm_name(instance.algorithm);
  if (!instance.library.algorithm.empty()) out["algorithm"] = instance.library.algorithm;
  if (!instance.library.protocol.empty()) out["protocol"] = instance.library.protocol;
  if (instance.library.channels) out["channels"] = *instance.library.channels;
  if (instance.measured) {
    out["start_us"] = instance.measured->start_us;
    out["duration_us"] = instance.measured->end_us - instance.measured->start_us;
  }
  if (!instance.label.empty()) out["label"] = instance.label;
  if (instance.bucket) {
    ordered bucket;
    bucket["index"] = instance.bucket->index;
    bucket["of"] = instance.bucket->of;
    if (instance.bucket->iteration) bucket["iteration"] = *instance.bucket->iteration;
    bucket["parameters"] = instance.bucket->parameters;
    if (instance.bucket->ready_us) bucket["ready_us"] = *instance.bucket->ready_us;
    out["bucket"] = bucket;
  }
  out["derived"] = instance.derived;
  return out;
}

ordered measured_json(const MeasuredMemory& m) {
  ordered out;
  out["label"] = m.label;
  out["strategy"] = strategy_name(m.strategy);
  out["recompute"] = recompute_name(m.recompute);
  out["world_size"] = m.world_size;
  const MeasuredShape& s = m.shape;
  out["shape"] = {{"parameters", s.parameters}, {"layers", s.layers}, {"hidden", s.hidden}, {"heads", s.heads},
                  {"ffn", s.ffn}, {"vocab", s.vocab}, {"seq", s.seq}, {"micro_batch", s.micro_batch},
                  {"dropout", s.dropout}};
  const MeasuredElementBytes& e = m.element_bytes;
  out["element_bytes"] = {{"parameters", e.parameters}, {"gradients", e.gradients}, {"activations", e.activations},
                          {"masks", e.masks}};
  const MeasuredTerms& t = m.measured;
  ordered terms;
  terms["parameters"] = t.parameters;
  terms["gradients"] = t.gradients;
  terms["optimizer_states"] = t.optimizer_states;
  terms["optimizer_step_counters"] = t.optimizer_step_counters;
  terms["optimizer_parameter_tensors"] = t.optimizer_parameter_tensors;
  terms["largest_parameter_tensor"] = t.largest_parameter_tensor;
  terms["activations_per_layer"] = t.activations_per_layer;
  terms["recomputed_per_layer"] = t.recomputed_per_layer;
  terms["outside_layers"] = t.outside_layers;
  terms["activations_peak"] = t.activations_peak;
  out["measured"] = terms;
  return out;
}

}  // namespace

std::string job_document_text(const Job& job) {
  ordered doc;
  doc["format"] = kJobFormat;
  doc["source"] = {{"kind", job.info.source_kind}, {"files", job.info.files}};
  ordered info;
  info["world_size"] = job.run.world_size();
  if (!job.info.backend.empty()) info["backend"] = job.info.backend;
  if (!job.info.nccl_version.empty()) info["nccl_version"] = job.info.nccl_version;
  if (!job.info.gpu.empty()) info["gpu"] = job.info.gpu;
  doc["job"] = info;
  doc["notes"] = job.info.notes;
  doc["groups"] = ordered::array();
  for (const ProcessGroup& group : job.run.groups) {
    ordered entry;
    entry["name"] = group.name;
    if (!group.description.empty()) entry["description"] = group.description;
    entry["ranks"] = group.ranks;
    doc["groups"].push_back(entry);
  }
  doc["ranks"] = ordered::array();
  for (int rank = 0; rank < job.run.world_size(); ++rank) {
    const RankTimeline& timeline = job.run.ranks[static_cast<std::size_t>(rank)];
    ordered entry;
    entry["rank"] = rank;
    entry["traced"] = timeline.traced;
    if (!timeline.traced) {
      doc["ranks"].push_back(entry);
      continue;
    }
    if (!timeline.host.empty()) entry["host"] = timeline.host;
    entry["clock_offset_us"] = timeline.clock_offset_us;
    entry["collectives"] = ordered::array();
    std::map<int, int> sequence_on_group;
    for (const CollectiveInstance& instance : timeline.collectives)
      entry["collectives"].push_back(collective_json(job.run, instance, sequence_on_group[instance.group]++));
    entry["compute"] = ordered::array();
    for (const ComputeSpan& span : timeline.compute)
      entry["compute"].push_back({{"name", span.name},
                                  {"kind", compute_kind_name(span.kind)},
                                  {"start_us", span.time.start_us},
                                  {"duration_us", span.time.end_us - span.time.start_us}});
    ordered memory = ordered::array();
    for (const MeasuredMemory& measured : job.memory)
      if (measured.rank == rank) memory.push_back(measured_json(measured));
    if (!memory.empty()) entry["memory"] = memory;
    doc["ranks"].push_back(entry);
  }
  return doc.dump(1) + "\n";
}

namespace {

class JobReader {
 public:
  JobReader(std::string_view text, std::string_view source) : reader_(text, source) {}

  Job read() {
    const json& root = reader_.object(reader_.document(), "");
    const std::string& format = reader_.text(reader_.member(root, "", "format"), "/format");
    if (format != kJobFormat)
      reader_.fail("/format", "\"" + format + "\" is not a job document (expected \"" + kJobFormat + "\")");
    Job job;
    const json& source = reader_.object(reader_.member(root, "", "source"), "/source");
    job.info.source_kind = reader_.text(reader_.member(source, "/source", "kind"), "/source/kind");
    if (auto files = source.find("files"); files != source.end()) job.info.files = strings(*files, "/source/files");
    const json& info = reader_.object(reader_.member(root, "", "job"), "/job");
    job.info.world_size =
        static_cast<int>(reader_.integer(reader_.member(info, "/job", "world_size"), "/job/world_size", 1, kMaxRanks));
    job.info.backend = optional_text(info, "/job", "backend");
    job.info.nccl_version = optional_text(info, "/job", "nccl_version");
    job.info.gpu = optional_text(info, "/job", "gpu");
    if (auto notes = root.find("notes"); notes != root.end()) job.info.notes = strings(*notes, "/notes");
    read_groups(root, job.run);
    job.run.ranks.assign(static_cast<std::size_t>(job.info.world_size), RankTimeline{});
    for (RankTimeline& timeline : job.run.ranks) timeline.traced = false;
    read_ranks(root, job);
    return job;
  }

  [[noreturn]] void fail(const std::string& pointer, const std::string& problem) const { reader_.fail(pointer, problem); }

 private:
  // `object[key]`, which must be an array.
  const json& array_member(const json& object, const std::string& pointer, const char* key) const {
    const json& value = reader_.member(object, pointer, key);
    if (!value.is_array()) reader_.fail(pointer + "/" + key, "expected an array, found " + kind_of(value));
    return value;
  }

  std::vector<std::int64_t> sizes(const json& value, const std::string& pointer) const {
    if (!value.is_array()) reader_.fail(pointer, "expected an array of element counts, found " + kind_of(value));
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < value.size(); ++i)
      out.push_back(reader_.integer(value[i], pointer + "/" + std::to_string(i), 0, kMaxCount));
    return out;
  }

  std::vector<std::string> strings(const json& value, const std::string& pointer) const {
    if (!value.is_array()) reader_.fail(pointer, "expected an array of strings, found " + kind_of(value));
    std::vector<std::string> out;
    for (std::size_t i = 0; i < value.size(); ++i) out.push_back(reader_.text(value[i], pointer + "/" + std::to_string(i)));
    return out;
  }

  std::string optional_text(const json& object, const std::string& pointer, const char* key) const {
    const auto found = object.find(key);
    return found == object.end() ? std::string() : reader_.text(*found, pointer + "/" + key);
  }

  double time(const json& object, const std::string& pointer, const char* key) const {
    const double value = reader_.real(reader_.member(object, pointer, key), pointer + "/" + key);
    if (!std::isfinite(value) || std::fabs(value) > 1e15)
      reader_.fail(pointer + "/" + key, "a time must be finite and within 10^15 microseconds");
    return value;
  }

  void read_groups(const json& root, Run& run) {
    const json& groups = array_member(root, "", "groups");
    for (std::size_t i = 0; i < groups.size(); ++i) {
      const std::string at = "/groups/" + std::to_string(i);
      const json& node = reader_.object(groups[i], at);
      ProcessGroup group;
      group.name = reader_.text(reader_.member(node, at, "name"), at + "/name");
      group.description = optional_text(node, at, "description");
      const json& ranks = array_member(node, at, "ranks");
      for (std::size_t r = 0; r < ranks.size(); ++r)
        group.ranks.push_back(
            static_cast<int>(reader_.integer(ranks[r], at + "/ranks/" + std::to_string(r), 0, kMaxRanks - 1)));
      group_index_[group.name] = static_cast<int>(run.groups.size());
      run.groups.push_back(std::move(group));
    }
  }

  void read_ranks(const json& root, Job& job) {
    Run& run = job.run;
    const json& ranks = array_member(root, "", "ranks");
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      const std::string at = "/ranks/" + std::to_string(i);
      const json& node = reader_.object(ranks[i], at);
      const auto rank = static_cast<std::size_t>(
          reader_.integer(reader_.member(node, at, "rank"), at + "/rank", 0, run.world_size() - 1));
      if (seen_.count(rank)) reader_.fail(at + "/rank", "rank " + std::to_string(rank) + " is listed twice");
      seen_.insert({rank, true});
      RankTimeline& timeline = run.ranks[rank];
      const json& traced = reader_.member(node, at, "traced");
      if (!traced.is_boolean()) reader_.fail(at + "/traced", "expected true or false, found " + kind_of(traced));
      timeline.traced = traced.get<bool>();
      if (!timeline.traced) continue;
      timeline.host = optional_text(node, at, "host");
      if (auto offset = node.find("clock_offset_us"); offset != node.end())
        timeline.clock_offset_us = reader_.real(*offset, at + "/clock_offset_us");
      const json& collectives = array_member(node, at, "collectives");
      for (std::size_t c = 0; c < collectives.size(); ++c)
        timeline.collectives.push_back(collective(collectives[c], at + "/collectives/" + std::to_string(c)));
      if (auto memory = node.find("memory"); memory != node.end()) {
        if (!memory->is_array()) reader_.fail(at + "/memory", "expected an array, found " + kind_of(*memory));
        for (std::size_t m = 0; m < memory->size(); ++m)
          job.memory.push_back(measured((*memory)[m], at + "/memory/" + std::to_string(m), static_cast<int>(rank)));
      }
      const json& compute = array_member(node, at, "compute");
      for (std::size_t s = 0; s < compute.size(); ++s) {
        const std::string span_at = at + "/compute/" + std::to_string(s);
        const json& span = reader_.object(compute[s], span_at);
        ComputeSpan out;
        out.name = reader_.text(reader_.member(span, span_at, "name"), span_at + "/name");
        out.kind = reader_.named(reader_.member(span, span_at, "kind"), span_at + "/kind",
                                 [](const std::string& name) { return parse_enum(kComputeKindNames, name, "kind"); });
        out.time.start_us = time(span, span_at, "start_us");
        out.time.end_us = out.time.start_us + duration(span, span_at);
        timeline.compute.push_back(std::move(out));
      }
    }
  }

  double duration(const json& node, const std::string& at) const {
    const double value = time(node, at, "duration_us");
    if (value < 0) reader_.fail(at + "/duration_us", "a duration cannot be negative");
    return value;
  }

  CollectiveInstance collective(const json& value, const std::string& at) const {
    const json& node = reader_.object(value, at);
    const auto field = [&](const char* key) -> const json& { return reader_.member(node, at, key); };
    CollectiveInstance instance;
    instance.op = reader_.named(field("op"), at + "/op", [](const std::string& name) { return parse_op(name); });
    const std::string& group = reader_.text(field("group"), at + "/group");
    const auto found = group_index_.find(group);
    if (found == group_index_.end()) reader_.fail(at + "/group", "no group is named \"" + group + "\" under \"groups\"");
    instance.group = found->second;
    instance.count = reader_.integer(field("count"), at + "/count", 0, kMaxCount);
    instance.dtype = reader_.named(field("dtype"), at + "/dtype",
                                   [](const std::string& name) { return parse_dtype_or_throw(name); });
    if (auto bytes = node.find("bytes"); bytes != node.end())
      instance.bytes = reader_.integer(*bytes, at + "/bytes", 0, kMaxCount * 8);
    if (auto reduce = node.find("reduce"); reduce != node.end())
      instance.reduce = reader_.named(*reduce, at + "/reduce",
                                      [](const std::string& name) { return parse_reduce_or_throw(name); });
    // Global ranks; run_validate checks that they are in the instance's group.
    if (auto root = node.find("root"); root != node.end())
      instance.root = static_cast<int>(reader_.integer(*root, at + "/root", 0, kMaxRanks - 1));
    if (auto peer = node.find("peer"); peer != node.end())
      instance.peer = static_cast<int>(reader_.integer(*peer, at + "/peer", 0, kMaxRanks - 1));
    // An uneven AllToAll's splits, one per member of the group (run_validate checks both).
    if (auto in = node.find("in_splits"); in != node.end()) instance.in_splits = sizes(*in, at + "/in_splits");
    if (auto out = node.find("out_splits"); out != node.end()) instance.out_splits = sizes(*out, at + "/out_splits");
    instance.library.algorithm = optional_text(node, at, "algorithm");
    instance.library.protocol = optional_text(node, at, "protocol");
    if (auto channels = node.find("channels"); channels != node.end()) {
      instance.library.channels = static_cast<int>(reader_.integer(*channels, at + "/channels", 1, 4096));
      instance.channels = std::min(*instance.library.channels, kMaxChannels);
    }
    if (auto algorithm = node.find("ringviz_algorithm"); algorithm != node.end())
      instance.algorithm = reader_.named(*algorithm, at + "/ringviz_algorithm",
                                         [](const std::string& name) { return parse_algorithm(name); });
    else
      instance.algorithm = algorithm_for_library(instance.op, instance.library.algorithm);
    if (node.contains("start_us")) {
      const double start = time(node, at, "start_us");
      instance.measured = TimeSpan{start, start + duration(node, at)};
    }
    instance.label = optional_text(node, at, "label");
    if (auto bucket = node.find("bucket"); bucket != node.end()) instance.bucket = read_bucket(*bucket, at + "/bucket");
    if (auto derived = node.find("derived"); derived != node.end()) instance.derived = strings(*derived, at + "/derived");
    return instance;
  }

  // A byte count or size: a whole number from `low` up to what any job could hold.
  std::int64_t count(const json& object, const std::string& pointer, const char* key, std::int64_t low = 0) const {
    return reader_.integer(reader_.member(object, pointer, key), pointer + "/" + key, low, kMaxCount * 64);
  }

  bool flag(const json& object, const std::string& pointer, const char* key) const {
    const json& value = reader_.member(object, pointer, key);
    if (!value.is_boolean()) reader_.fail(pointer + "/" + key, "expected true or false, found " + kind_of(value));
    return value.get<bool>();
  }

  std::vector<std::int64_t> counts(const json& object, const std::string& pointer, const char* key) const {
    const json& value = array_member(object, pointer, key);
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < value.size(); ++i)
      out.push_back(reader_.integer(value[i], pointer + "/" + key + "/" + std::to_string(i), 0, kMaxCount * 64));
    return out;
  }

  MeasuredMemory measured(const json& value, const std::string& at, int rank) const {
    const json& node = reader_.object(value, at);
    MeasuredMemory m;
    m.rank = rank;
    m.label = reader_.text(reader_.member(node, at, "label"), at + "/label");
    m.strategy = reader_.named(reader_.member(node, at, "strategy"), at + "/strategy",
                               [](const std::string& name) { return parse_strategy(name, "strategy"); });
    if (m.strategy != Strategy::ddp && m.strategy != Strategy::zero1)
      reader_.fail(at + "/strategy", "a measured job is ddp or zero1 (ZeroRedundancyOptimizer)");
    m.recompute = reader_.named(reader_.member(node, at, "recompute"), at + "/recompute",
                                [](const std::string& name) { return parse_recompute(name, "recompute"); });
    m.world_size = static_cast<int>(reader_.integer(reader_.member(node, at, "world_size"), at + "/world_size", 1, kMaxRanks));
    const std::string shape_at = at + "/shape";
    const json& shape = reader_.object(reader_.member(node, at, "shape"), shape_at);
    m.shape.parameters = count(shape, shape_at, "parameters", 1);
    m.shape.layers = count(shape, shape_at, "layers", 1);
    m.shape.hidden = count(shape, shape_at, "hidden", 1);
    m.shape.heads = count(shape, shape_at, "heads", 1);
    m.shape.ffn = count(shape, shape_at, "ffn", 1);
    m.shape.vocab = count(shape, shape_at, "vocab", 1);
    m.shape.seq = count(shape, shape_at, "seq", 1);
    m.shape.micro_batch = count(shape, shape_at, "micro_batch", 1);
    m.shape.dropout = flag(shape, shape_at, "dropout");
    const std::string bytes_at = at + "/element_bytes";
    const json& bytes = reader_.object(reader_.member(node, at, "element_bytes"), bytes_at);
    const auto element = [&](const char* key) {
      return static_cast<int>(reader_.integer(reader_.member(bytes, bytes_at, key), bytes_at + "/" + key, 1, 8));
    };
    m.element_bytes = {element("parameters"), element("gradients"), element("activations"), element("masks")};
    const std::string terms_at = at + "/measured";
    const json& terms = reader_.object(reader_.member(node, at, "measured"), terms_at);
    MeasuredTerms& t = m.measured;
    t.parameters = count(terms, terms_at, "parameters");
    t.gradients = count(terms, terms_at, "gradients");
    t.optimizer_states = count(terms, terms_at, "optimizer_states");
    t.optimizer_step_counters = count(terms, terms_at, "optimizer_step_counters");
    t.optimizer_parameter_tensors = count(terms, terms_at, "optimizer_parameter_tensors");
    t.largest_parameter_tensor = count(terms, terms_at, "largest_parameter_tensor");
    t.activations_per_layer = counts(terms, terms_at, "activations_per_layer");
    t.recomputed_per_layer = counts(terms, terms_at, "recomputed_per_layer");
    t.outside_layers = count(terms, terms_at, "outside_layers");
    t.activations_peak = count(terms, terms_at, "activations_peak");
    for (const char* key : {"activations_per_layer", "recomputed_per_layer"})
      if (static_cast<std::int64_t>(terms[key].size()) != m.shape.layers)
        reader_.fail(terms_at + "/" + key, "lists " + std::to_string(terms[key].size()) + " layers; the shape has " +
                                               std::to_string(m.shape.layers));
    return m;
  }

  GradientBucket read_bucket(const json& value, const std::string& at) const {
    const json& node = reader_.object(value, at);
    GradientBucket bucket;
    bucket.index = static_cast<int>(reader_.integer(reader_.member(node, at, "index"), at + "/index", 0, 1 << 24));
    bucket.of = static_cast<int>(reader_.integer(reader_.member(node, at, "of"), at + "/of", 1, 1 << 24));
    if (bucket.index >= bucket.of)
      reader_.fail(at + "/index", "bucket " + std::to_string(bucket.index) + " of " + std::to_string(bucket.of) +
                                      ": buckets count from 0");
    if (auto iteration = node.find("iteration"); iteration != node.end())
      bucket.iteration = static_cast<int>(reader_.integer(*iteration, at + "/iteration", 0, 1 << 30));
    if (auto parameters = node.find("parameters"); parameters != node.end())
      bucket.parameters = strings(*parameters, at + "/parameters");
    if (node.contains("ready_us")) bucket.ready_us = time(node, at, "ready_us");
    return bucket;
  }

  DocumentReader reader_;
  std::map<std::string, int> group_index_;
  std::map<std::size_t, bool> seen_;
};

}  // namespace

Job parse_job_document(std::string_view text, std::string_view source) {
  JobReader reader(text, source);
  Job job = reader.read();
  if (auto problem = validate(job.run)) reader.fail("/ranks", *problem);
  return job;
}

Job read_job_document(const std::string& path) {
  const std::string text = read_input_text(path, "job document", kMaxJobDocumentBytes);
  return parse_job_document(text, path);
}

bool looks_like_job_document(std::string_view head) {
  const std::size_t brace = head.find_first_not_of(" \t\r\n");
  if (brace == std::string_view::npos || head[brace] != '{') return false;
  const std::size_t key = head.find_first_not_of(" \t\r\n", brace + 1);
  return key != std::string_view::npos && head.substr(key, 8) == "\"format\"" &&
         head.find(kJobFormat) != std::string_view::npos;
}

bool is_job_document_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::string head(256, '\0');
  file.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(file.gcount()));
  return looks_like_job_document(head);
}

}  // namespace ringviz
