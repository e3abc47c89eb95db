#include "app/gui/record/video_check.h"

#include <cerrno>
#include <cstdint>
#include <fstream>
#include <system_error>

#include <fcntl.h>
#include <spawn.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ringviz::gui {

namespace fs = std::filesystem;

namespace {

std::uint64_t big_endian(const unsigned char* bytes, int count) {
  std::uint64_t value = 0;
  for (int i = 0; i < count; ++i) value = value << 8 | bytes[i];
  return value;
}

std::string mp4_problem(std::ifstream& in, std::uint64_t size) {
  bool ftyp = false, moov = false;
  std::uint64_t at = 0;
  while (at < size) {
    unsigned char header[16];
    if (size - at < 8 || !in.seekg(static_cast<std::streamoff>(at)) || !in.read(reinterpret_cast<char*>(header), 8))
      return "the MP4 ends inside a box header";
    std::uint64_t box = big_endian(header, 4);
    const std::string type(reinterpret_cast<const char*>(header + 4), 4);
    if (box == 1) {  // a 64-bit size follows the type
      if (size - at < 16 || !in.read(reinterpret_cast<char*>(header + 8), 8)) return "the MP4 ends inside a box header";
      box = big_endian(header + 8, 8);
    } else if (box == 0) {  // the box runs to the end of the file
      box = size - at;
    }
    if (box < 8 || box > size - at) return "the MP4 is cut short inside its '" + type + "' box";
    ftyp = ftyp || type == "ftyp";
    moov = moov || type == "moov";
    at += box;
  }
  if (!ftyp) return "the MP4 has no 'ftyp' box";
  if (!moov) return "the MP4 has no index ('moov' box)";
  return {};
}

std::string gif_problem(std::ifstream& in, std::uint64_t size) {
  char header[6];
  char last = 0;
  if (size < 7 || !in.read(header, 6)) return "the GIF is too short";
  const std::string signature(header, 6);
  if (signature != "GIF87a" && signature != "GIF89a") return "the GIF has no GIF87a/GIF89a header";
  if (!in.seekg(-1, std::ios::end) || !in.get(last) || last != 0x3B) return "the GIF has no trailer (it was cut short)";
  return {};
}

// Opens a non-empty file and hands it to `check`.
template <typename Check>
std::string problem_of(const fs::path& video, Check check) {
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(video, ec);
  if (ec) return "the file is missing (" + ec.message() + ")";
  if (size == 0) return "the file is empty";
  std::ifstream in(video, std::ios::binary);
  if (!in) return "the file cannot be read back";
  return check(in, static_cast<std::uint64_t>(size));
}

}  // namespace

std::string incomplete_mp4_problem(const fs::path& video) { return problem_of(video, mp4_problem); }
std::string incomplete_gif_problem(const fs::path& video) { return problem_of(video, gif_problem); }

std::string ffprobe_problem(const fs::path& ffmpeg, const fs::path& video) {
  std::string ffprobe = (ffmpeg.parent_path() / "ffprobe").string();
  if (::access(ffprobe.c_str(), X_OK) != 0) return {};
  std::string quiet = "-v", level = "error", show = "-show_entries", entries = "format=duration", name = video.string();
  char* argv[] = {ffprobe.data(), quiet.data(), level.data(), show.data(), entries.data(), name.data(), nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return {};  // not ours to judge then: the structural check passed
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  return "ffprobe cannot read it";
}

bool disk_is_full(const fs::path& path) {
  constexpr unsigned long long kNearlyFull = 1ull << 20;  // less than an MP4 index or a frame
  struct statvfs disk {};
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  if (::statvfs(folder.c_str(), &disk) != 0) return false;
  return static_cast<unsigned long long>(disk.f_bavail) * disk.f_frsize < kNearlyFull;
}

}  // namespace ringviz::gui
