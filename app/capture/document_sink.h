#pragma once
// Where rank 0 writes the document (docs/architecture.md, "Capture"): an OutputFile (a hidden
// temporary beside --out, renamed at the end) behind an ostream, or stdout without --out. While
// the temporary exists, SIGINT, SIGTERM and SIGHUP delete it before the process ends by that
// signal: mpirun tears a job down with SIGTERM when a rank dies, and a rank blocked in MPI
// would never look at a flag.
#include <filesystem>
#include <memory>
#include <ostream>
#include <string>

#include "core/output/output_file.h"

namespace ringviz::capture {

class DocumentSink {
 public:
  // Empty `out`: stdout.
  explicit DocumentSink(const std::string& out);
  ~DocumentSink();  // uncommitted: the temporary is removed
  DocumentSink(const DocumentSink&) = delete;
  DocumentSink& operator=(const DocumentSink&) = delete;

  // False with `error` set ("cannot write ...").
  bool open(std::string& error);
  std::ostream& stream();
  // Flushes, checks every write and renames into place; false with `error` set.
  bool commit(std::string& error);

 private:
  class FileBuffer;
  std::string out_;
  OutputFile file_;
  std::unique_ptr<FileBuffer> buffer_;
  std::unique_ptr<std::ostream> stream_;
};

}  // namespace ringviz::capture
