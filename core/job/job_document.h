#pragma once
// The job document `ringviz.job/1` (docs/job-format.md): written by `job import`, read by
// `job show`, the Job view and `job import` itself when it joins the parts a live recording
// wrote.
#include <string>
#include <string_view>

#include "core/run/job.h"

namespace ringviz {

inline constexpr const char* kJobFormat = "ringviz.job/1";
// Larger than any job's document (a 128-rank job with thousands of collectives is tens of MB).
inline constexpr std::uintmax_t kMaxJobDocumentBytes = std::uintmax_t{512} << 20;

std::string job_document_text(const Job& job);

// Every problem is one InputError "<source>:<line>:<column>: <path>: <problem>"; a document
// that breaks the run's rules (core/run/run_validate.h) names the rank and collective.
Job parse_job_document(std::string_view text, std::string_view source);
Job read_job_document(const std::string& path);

// Whether `text` starts like a job document (its first member is "format": "ringviz.job/1"),
// so `job import` can tell a part from a profiler trace without reading either twice.
bool looks_like_job_document(std::string_view head);
// The same for the file at `path` (its first bytes); false when it cannot be read.
bool is_job_document_file(const std::string& path);

}  // namespace ringviz
