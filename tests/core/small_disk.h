#pragma once
// A folder on a tiny tmpfs, for "the disk is full" tests. Mounting needs root outside a
// restricted container; where it is refused, available() is false and the test uses
// /dev/full alone (and says that the tmpfs part was skipped) instead of failing.
#include <sys/mount.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

namespace ringviz::test {

class SmallDisk {
 public:
  explicit SmallDisk(const std::string& size = "1m") {
    std::string pattern = (std::filesystem::temp_directory_path() / "ringviz-small-disk-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) return;
    path_ = pattern;
    mounted_ = ::mount("tmpfs", path_.c_str(), "tmpfs", 0, ("size=" + size).c_str()) == 0;
  }
  ~SmallDisk() {
    if (mounted_) ::umount2(path_.c_str(), MNT_DETACH);
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;

  bool available() const { return mounted_; }
  const std::filesystem::path& path() const { return path_; }

  // Takes all the space but `leave` bytes, with a file named `name`.
  void fill(const std::string& name = "ballast", std::size_t leave = 0) const {
    const std::filesystem::space_info space = std::filesystem::space(path_);
    const std::size_t take = space.available > leave ? space.available - leave : 0;
    const std::string command = "head -c " + std::to_string(take) + " /dev/zero > '" + (path_ / name).string() +
                                "' 2> /dev/null";
    (void)std::system(command.c_str());
  }

 private:
  std::filesystem::path path_;
  bool mounted_ = false;
};

}  // namespace ringviz::test
