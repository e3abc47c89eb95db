// `ringviz capture`: becomes ringviz-capture (execv), the MPI program built beside this one, so
// that MPI stays out of the GUI binary and `mpirun -np 4 ringviz capture ...` works as typed
// (docs/architecture.md, "Capture").
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <unistd.h>

#include "app/cli/command.h"
#include "core/model/text.h"

namespace ringviz::cli {

namespace {

constexpr const char* kCaptureExecutable = "ringviz-capture";

// The folder of this executable: ringviz-capture is built and installed beside it.
std::filesystem::path executable_folder() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::path(".") : self.parent_path();
}

int run_capture(const std::vector<std::string>& arguments) {
  const std::filesystem::path folder = executable_folder();
  const std::filesystem::path program = folder / kCaptureExecutable;
  std::vector<std::string> words{kCaptureExecutable};
  words.insert(words.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  ::execv(program.c_str(), argv.data());
  const int error_number = errno;
  if (error_number == ENOENT) {
    std::cerr << "ringviz: capture needs " << kCaptureExecutable << ", which is not in "
              << escape_for_message(folder.string())
              << " (this ringviz was built without MPI); apt-get install libopenmpi-dev openmpi-bin, then "
                 "rebuild\n";
    return 2;
  }
  std::cerr << "ringviz: cannot start " << escape_for_message(program.string()) << ": " << std::strerror(error_number)
            << "; rebuild, or check its permissions\n";
  return 2;
}

}  // namespace

Command add_capture_command(CLI::App& app) {
  auto* parser = app.add_subcommand(
      "capture", "run the collective across the processes of an MPI job (mpirun -np N ringviz capture ...), "
                 "measured round by round; see ringviz capture --help");
  // Everything after `capture` belongs to ringviz-capture, --help included.
  parser->prefix_command();
  parser->set_help_flag();
  return {parser, [parser] { return run_capture(parser->remaining()); }};
}

}  // namespace ringviz::cli
