#pragma once
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace ringviz {

// A file the program writes (a screenshot, a layout dump, the settings), written so that a
// failing machine is never reported as success (docs/architecture.md, "Output files"): the
// bytes go to a hidden temporary next to the target, every write and the close are checked,
// and only then is the temporary renamed over the target. On failure the temporary is
// removed and the target is left as it was. A target that exists and is not a regular file
// (/dev/null, /dev/full, a FIFO) cannot be replaced by a rename: it is written directly, each
// write still checked.
class OutputFile {
 public:
  OutputFile() = default;
  ~OutputFile();  // discards whatever was not committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // False with `error` set ("cannot write <target>: <why>; <fix>").
  bool open(const std::filesystem::path& target, std::string& error);
  bool write(const void* data, std::size_t size, std::string& error);
  // Closes and renames into place; false with `error` set, the temporary gone.
  bool commit(std::string& error);
  void discard();

 private:
  bool fail(int error_number, std::string& error);

  std::filesystem::path target_;   // as given: what messages name
  std::filesystem::path replaced_;  // the file a link points to, or the target itself
  std::filesystem::path written_;  // the temporary, or the target itself when written directly
  int fd_ = -1;
  bool direct_ = false;
};

// All of `contents` into `target` through an OutputFile.
bool write_output_file(const std::filesystem::path& target, std::string_view contents, std::string& error);

// Where a file or folder being made for `target` lives until it is complete: hidden, in the
// same folder (so that the rename is atomic), unique to this process.
std::filesystem::path temporary_path_for(const std::filesystem::path& target);

// "cannot write <path>: <strerror> (<cause>); <fix>", for a failed write, flush or close.
std::string cannot_write_message(const std::string& path, int error_number);

// All of `size` bytes to `fd`, retrying short writes and EINTR; false with errno set.
bool write_all(int fd, const void* data, std::size_t size);

// Whatever a command printed must have arrived: a full disk or a closed pipe behind stdout is
// a failing machine, never a success with nothing written. Flushes stdout; on failure prints
// "ringviz: cannot write output: REASON" and returns 1 (or `exit_code` when that is already
// non-zero); otherwise returns `exit_code`.
int check_stdout_at_exit(int exit_code);

}  // namespace ringviz
