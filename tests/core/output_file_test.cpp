// Output files (core/output): what the program writes appears under its final name only when
// every byte arrived; a full disk, /dev/full or a bad path is reported, never taken for
// success; bad output paths are refused before any work.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "core/output/output_file.h"
#include "core/output/output_path.h"
#include "core/model/input_error.h"
#include "tests/core/small_disk.h"

namespace fs = std::filesystem;
using ringviz::InputError;

namespace {

struct Folder {
  fs::path path;
  Folder() {
    std::string pattern = (fs::temp_directory_path() / "ringviz-output-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~Folder() { fs::remove_all(path); }
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Names in `folder` that are temporaries of ours.
int partial_files(const fs::path& folder) {
  int count = 0;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.path().filename().string().find(".partial-") != std::string::npos) ++count;
  return count;
}

std::string refusal(const std::string& path, const std::string& flag, std::string_view extension = {}) {
  try {
    ringviz::check_output_file(path, flag, extension);
  } catch (const InputError& error) {
    return error.what();
  }
  return {};
}

bool never_replaceable(const std::string&) { return false; }
bool frames_only(const std::string& name) { return name.rfind("frame-", 0) == 0; }

std::string folder_refusal(const std::string& path, bool (*replaceable)(const std::string&)) {
  try {
    ringviz::check_output_folder(path, "--out", replaceable);
  } catch (const InputError& error) {
    return error.what();
  }
  return {};
}

}  // namespace

TEST_CASE("an output file appears under its final name only when committed, and replaces the old one") {
  Folder folder;
  const fs::path target = folder.path / "layout.json";
  std::ofstream(target) << "old";
  ::chmod(target.c_str(), 0600);
  ringviz::OutputFile file;
  std::string error;
  REQUIRE(file.open(target, error));
  REQUIRE(file.write("new", 3, error));
  CHECK(read_file(target) == "old");
  CHECK(partial_files(folder.path) == 1);
  REQUIRE(file.commit(error));
  CHECK(read_file(target) == "new");
  CHECK(partial_files(folder.path) == 0);
  struct stat info {};
  REQUIRE(::stat(target.c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0600);
}

TEST_CASE("an output file that is not committed leaves nothing behind") {
  Folder folder;
  {
    ringviz::OutputFile file;
    std::string error;
    REQUIRE(file.open(folder.path / "shot.png", error));
    REQUIRE(file.write("half", 4, error));
  }
  CHECK(fs::is_empty(folder.path));
}

TEST_CASE("writing to /dev/full fails saying the disk is full, /dev/null takes the bytes") {
  std::string error;
  CHECK(!ringviz::write_output_file("/dev/full", "bytes", error));
  CHECK(error == "cannot write /dev/full: No space left on device (disk full); free space or choose another path");
  error.clear();
  CHECK(ringviz::write_output_file("/dev/null", "bytes", error));
  CHECK(error.empty());
}

TEST_CASE("on a full disk the write fails, the old file stays, and no temporary is left") {
  ringviz::test::SmallDisk disk("64k");
  if (!disk.available()) {
    MESSAGE("cannot mount a tmpfs here (not root, or a container): the full-disk part was skipped; /dev/full covers it");
    return;
  }
  const fs::path target = disk.path() / "frame.png";
  std::ofstream(target) << "old picture";
  disk.fill();
  std::string error;
  CHECK(!ringviz::write_output_file(target, std::string(200000, 'x'), error));
  CHECK(error == "cannot write " + target.string() +
                     ": No space left on device (disk full); free space or choose another path");
  CHECK(read_file(target) == "old picture");
  CHECK(partial_files(disk.path()) == 0);
}

TEST_CASE("a bad output file path is refused naming the flag and the fix") {
  Folder folder;
  const std::string dir = folder.path.string();
  CHECK(refusal("", "--screenshot", ".png") == "--screenshot: the path is empty; give a file name, e.g. out.png");
  CHECK(refusal(dir, "--screenshot", ".png") ==
        "--screenshot: '" + dir + "' is a folder; give a file name, e.g. " + dir + "/out.png");
  CHECK(refusal(dir + "/missing/x.png", "--screenshot", ".png") ==
        "--screenshot: the folder '" + dir + "/missing' does not exist; create it or choose another path");
  CHECK(refusal(dir + "/x.jpg", "--screenshot", ".png") ==
        "--screenshot: '" + dir + "/x.jpg': ringviz writes PNG only; give a name ending in .png");
  CHECK(refusal(dir + "/new/", "--dump-layout", ".json").find("names a folder") != std::string::npos);
  std::ofstream(folder.path / "plain") << "";
  CHECK(refusal(dir + "/plain/x.png", "--screenshot", ".png") ==
        "--screenshot: '" + dir + "/plain' is not a folder; choose another path");
  if (::geteuid() != 0) {  // root may write anywhere
    fs::create_directory(folder.path / "locked");
    ::chmod((folder.path / "locked").c_str(), 0500);
    CHECK(refusal(dir + "/locked/x.png", "--screenshot", ".png").find("cannot write into the folder") !=
          std::string::npos);
  }
}

TEST_CASE("good output file paths pass: a new file, an upper-case extension, a device") {
  Folder folder;
  CHECK(refusal((folder.path / "x.PNG").string(), "--screenshot", ".png").empty());
  CHECK(refusal((folder.path / "notes").string(), "--out").empty());
  CHECK(refusal("/dev/null", "--screenshot", ".png").empty());
}

TEST_CASE("a PNG folder output must be a folder holding nothing but earlier frames") {
  Folder folder;
  const std::string dir = folder.path.string();
  CHECK(folder_refusal("", frames_only) == "--out: the path is empty; give a folder name, e.g. frames/");
  std::ofstream(folder.path / "file") << "";
  CHECK(folder_refusal(dir + "/file/", frames_only) ==
        "--out: '" + dir + "/file' is a file, not a folder; choose a new folder name");
  fs::create_directory(folder.path / "frames");
  std::ofstream(folder.path / "frames" / "frame-000000.png") << "";
  CHECK(folder_refusal(dir + "/frames/", frames_only).empty());
  CHECK(folder_refusal(dir + "/frames/", never_replaceable).find("holds other files (frame-000000.png)") !=
        std::string::npos);
  CHECK(folder_refusal(dir + "/missing/frames/", frames_only).find("does not exist") != std::string::npos);
}

TEST_CASE("the temporary of a file or a folder is hidden next to it and names this process") {
  const std::string suffix = ".partial-" + std::to_string(::getpid());
  CHECK(ringviz::temporary_path_for("out/clip.mp4") == fs::path("out/.clip.mp4" + suffix));
  CHECK(ringviz::temporary_path_for("out/frames/") == fs::path("out/.frames" + suffix));
}
