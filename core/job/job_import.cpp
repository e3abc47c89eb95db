#include "core/job/job_import.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <system_error>

#include "core/job/clock_alignment.h"
#include "core/job/job_document.h"
#include "core/kineto/kineto_import.h"
#include "core/kineto/kineto_trace.h"
#include "core/kineto/trace_text_stream.h"
#include "core/model/input_error.h"
#include "core/run/run_validate.h"

namespace ringviz {
namespace {

namespace fs = std::filesystem;

bool is_trace_name(const std::string& name) {
  const auto ends = [&](const std::string& suffix) {
    return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return ends(".json") || ends(".json.gz");
}

std::string head_of(const std::string& path) {
  TraceTextStream stream(path);
  std::string head;
  while (head.size() < 512) {
    const auto c = stream.sbumpc();
    if (c == std::char_traits<char>::eof()) break;
    head += static_cast<char>(c);
  }
  return head;
}

// Parts of one live recording, one rank each, as one job on one clock.
Job join_parts(const std::vector<std::string>& files) {
  Job joined;
  std::map<int, std::string> rank_file;
  for (const std::string& file : files) {
    Job part = read_job_document(file);
    if (joined.run.ranks.empty()) {
      joined.info = part.info;
      joined.info.files.clear();
      joined.info.notes.clear();
      joined.run.groups = part.run.groups;
      joined.run.ranks.assign(part.run.ranks.size(), RankTimeline{});
      for (RankTimeline& timeline : joined.run.ranks) timeline.traced = false;
    } else {
      if (part.run.world_size() != joined.run.world_size())
        throw InputError(file + ": a job of " + std::to_string(part.run.world_size()) + " ranks, but " + files.front() +
                         " is of " + std::to_string(joined.run.world_size()) + "; are these parts of one job?");
      for (const ProcessGroup& group : part.run.groups) {
        const auto same = std::find_if(joined.run.groups.begin(), joined.run.groups.end(),
                                       [&](const ProcessGroup& known) { return known.name == group.name; });
        if (same == joined.run.groups.end()) {
          // A part may know a group the others never used: its index is appended.
          joined.run.groups.push_back(group);
        } else if (same->ranks != group.ranks) {
          throw InputError(file + ": group \"" + group.name + "\" has other ranks than in " + files.front() +
                           "; are these parts of one job?");
        }
      }
    }
    joined.info.files.push_back(file);
    for (const std::string& note : part.info.notes) joined.info.notes.push_back(note);
    for (MeasuredMemory& measured : part.memory) joined.memory.push_back(std::move(measured));
    for (int rank = 0; rank < part.run.world_size(); ++rank) {
      RankTimeline& timeline = part.run.ranks[static_cast<std::size_t>(rank)];
      if (!timeline.traced) continue;
      const auto [slot, inserted] = rank_file.emplace(rank, file);
      if (!inserted)
        throw InputError(file + ": rank " + std::to_string(rank) + " again (" + slot->second +
                         " has it too); pass each rank's part once");
      for (CollectiveInstance& instance : timeline.collectives) {
        // Group indices are the part's own: map them by name onto the joined list.
        const std::string& name = part.run.groups[static_cast<std::size_t>(instance.group)].name;
        instance.group = static_cast<int>(std::find_if(joined.run.groups.begin(), joined.run.groups.end(),
                                                       [&](const ProcessGroup& g) { return g.name == name; }) -
                                          joined.run.groups.begin());
      }
      joined.run.ranks[static_cast<std::size_t>(rank)] = std::move(timeline);
    }
  }
  // Every part's times are on its machine's wall clock: machines are aligned on the collectives
  // they share, then the job's clock starts at its first event.
  if (auto problem = validate(joined.run))
    throw InputError(files.front() + (files.size() > 1 ? " and the other parts" : "") + ": " + *problem +
                     "; are these parts of one job?");
  for (const std::string& note : clock_alignment_notes(align_host_clocks(joined.run), joined.run))
    joined.info.notes.push_back(note);
  double earliest = 0;
  bool any_time = false;
  const auto consider = [&](double start_us) {
    if (!any_time || start_us < earliest) earliest = start_us;
    any_time = true;
  };
  for (const RankTimeline& timeline : joined.run.ranks) {
    for (const CollectiveInstance& instance : timeline.collectives)
      if (instance.measured) consider(instance.measured->start_us);
    for (const ComputeSpan& span : timeline.compute) consider(span.time.start_us);
  }
  for (RankTimeline& timeline : joined.run.ranks) {
    if (!timeline.traced) continue;
    timeline.clock_offset_us -= earliest;
    for (CollectiveInstance& instance : timeline.collectives) {
      if (instance.measured) {
        instance.measured->start_us -= earliest;
        instance.measured->end_us -= earliest;
      }
      if (instance.bucket && instance.bucket->ready_us) *instance.bucket->ready_us -= earliest;
    }
    for (ComputeSpan& span : timeline.compute) {
      span.time.start_us -= earliest;
      span.time.end_us -= earliest;
    }
  }
  // Parts come in file-name order (rank-10 before rank-2); measurements are kept in rank order.
  std::stable_sort(joined.memory.begin(), joined.memory.end(),
                   [](const MeasuredMemory& a, const MeasuredMemory& b) { return a.rank < b.rank; });
  return joined;
}

}  // namespace

std::vector<std::string> job_input_files(const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const std::string& input : inputs) {
    std::error_code error;
    if (fs::is_directory(input, error)) {
      std::vector<std::string> found;
      for (const fs::directory_entry& entry : fs::directory_iterator(input, error))
        if (entry.is_regular_file(error) && is_trace_name(entry.path().filename().string()))
          found.push_back(entry.path().string());
      if (found.empty())
        throw InputError(input + ": a folder with no .json or .json.gz file; pass the folder the profiler or "
                         "ringviz_torch.record wrote");
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::exists(input, error)) {
      files.push_back(input);
    } else {
      throw InputError(input + ": no such file or folder");
    }
  }
  return files;
}

Job import_job(const std::vector<std::string>& files, JobImportStats* stats) {
  if (files.empty()) throw InputError("job import: no trace to read; pass profiler traces or a folder of them");
  std::vector<std::string> parts, traces;
  for (const std::string& file : files) (looks_like_job_document(head_of(file)) ? parts : traces).push_back(file);
  if (!parts.empty() && !traces.empty())
    throw InputError(parts.front() + " is a part of a live recording and " + traces.front() +
                     " a profiler trace; import them separately");
  if (!parts.empty()) return join_parts(parts);
  std::vector<KinetoRankTrace> read;
  for (const std::string& file : traces) {
    read.push_back(read_kineto_trace(file));
    if (stats) {
      stats->text_bytes += read.back().text_bytes;
      stats->file_bytes += read.back().file_bytes;
      stats->events += read.back().events;
    }
  }
  return import_kineto_traces(read);
}

}  // namespace ringviz
