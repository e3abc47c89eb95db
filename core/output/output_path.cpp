#include "core/output/output_path.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/model/input_error.h"
#include "core/output/output_file.h"

namespace ringviz {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return text;
}

std::string upper(std::string_view text) {
  std::string result(text);
  for (char& c : result) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return result;
}

// The folder that will hold `target` must exist and take new files.
void check_parent(const fs::path& target, const std::string& flag) {
  const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  struct stat info {};
  if (::stat(parent.c_str(), &info) != 0)
    throw InputError(flag + ": the folder '" + parent.string() + "' does not exist; create it or choose another path");
  if (!S_ISDIR(info.st_mode))
    throw InputError(flag + ": '" + parent.string() + "' is not a folder; choose another path");
  if (::access(parent.c_str(), W_OK | X_OK) != 0)
    throw InputError(flag + ": cannot write into the folder '" + parent.string() + "' (" + std::strerror(errno) +
                     "); choose a folder you can write to");
  // Permission bits do not tell everything (root passes access(), /proc and /sys take no new
  // files, a read-only mount): make the writer's own temporary, then remove it at once.
  const fs::path probe = temporary_path_for(target);
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    const int error_number = errno;
    if (error_number == EEXIST) return;  // another writer of ours is at work there: the folder takes files
    // /proc answers "No such file or directory" for a folder that exists: say what it means.
    const std::string why = error_number == ENOENT ? "it takes no new files" : std::strerror(error_number);
    throw InputError(flag + ": cannot write into the folder '" + parent.string() + "' (" + why +
                     "); choose a folder you can write to");
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace

void check_output_file(const std::string& path, const std::string& flag, std::string_view extension) {
  const std::string example = "out" + std::string(extension.empty() ? ".txt" : extension);
  if (path.empty()) throw InputError(flag + ": the path is empty; give a file name, e.g. " + example);
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode))
      throw InputError(flag + ": '" + path + "' is a folder; give a file name, e.g. " + (fs::path(path) / example).string());
    if (!S_ISREG(info.st_mode)) return;  // a device or a FIFO takes the bytes as they come
    if (::access(path.c_str(), W_OK) != 0)
      throw InputError(flag + ": '" + path + "' cannot be replaced (" + std::strerror(errno) + "); choose another path");
  } else if (path.back() == '/') {
    throw InputError(flag + ": '" + path + "' names a folder; give a file name, e.g. " + path + example);
  }
  if (!extension.empty() && lower(fs::path(path).extension().string()) != extension)
    throw InputError(flag + ": '" + path + "': ringviz writes " + upper(extension.substr(1)) +
                     " only; give a name ending in " + std::string(extension));
  check_parent(path, flag);
}

void check_output_folder(const std::string& path, const std::string& flag, bool (*replaceable)(const std::string&)) {
  if (path.empty()) throw InputError(flag + ": the path is empty; give a folder name, e.g. frames/");
  fs::path folder(path);
  if (folder.filename().empty()) folder = folder.parent_path();  // "frames/"
  std::error_code ec;
  if (fs::exists(folder, ec)) {
    if (!fs::is_directory(folder, ec))
      throw InputError(flag + ": '" + folder.string() + "' is a file, not a folder; choose a new folder name");
    for (const auto& entry : fs::directory_iterator(folder, ec))
      if (!replaceable(entry.path().filename().string()))
        throw InputError(flag + ": the folder '" + folder.string() + "' holds other files (" +
                         entry.path().filename().string() + "); choose an empty or new folder");
  }
  check_parent(folder, flag);
}

}  // namespace ringviz
