#include "core/output/output_file.h"

#include <cerrno>
#include <cstdio>
#include <iostream>
#include <cstring>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ringviz {

namespace fs = std::filesystem;

std::string cannot_write_message(const std::string& path, int error_number) {
  std::string text = "cannot write " + path + ": " + std::strerror(error_number);
  switch (error_number) {
    case ENOSPC: return text + " (disk full); free space or choose another path";
    case EDQUOT: return text + " (disk quota exhausted); free space or choose another path";
    case EFBIG:
      return text + " (the file grew past the allowed size); raise the limit (ulimit -f) or choose another path";
    case EACCES:
    case EPERM:
    case EROFS: return text + "; choose a folder you can write to";
    default: return text;
  }
}

bool write_all(int fd, const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, bytes, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

fs::path temporary_path_for(const fs::path& target) {
  fs::path name = target.filename();
  fs::path folder = target.parent_path();
  if (name.empty()) {  // "frames/"
    name = folder.filename();
    folder = folder.parent_path();
  }
  std::string hidden = ".";
  hidden += name.string();
  hidden += ".partial-";
  hidden += std::to_string(::getpid());
  return folder / hidden;
}

OutputFile::~OutputFile() { discard(); }

bool OutputFile::open(const fs::path& target, std::string& error) {
  discard();
  target_ = target;
  // A link is followed, so that the file it names is replaced and the link stays.
  std::error_code ec;
  fs::path real = fs::is_symlink(target, ec) ? fs::canonical(target, ec) : target;
  if (ec) real = target;
  struct stat existing {};
  const bool exists = ::stat(real.c_str(), &existing) == 0;
  direct_ = exists && !S_ISREG(existing.st_mode);
  written_ = direct_ ? real : temporary_path_for(real);
  const int flags = direct_ ? O_WRONLY | O_CLOEXEC : O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC;
  if (!direct_) ::unlink(written_.c_str());  // left by an earlier process with our pid
  fd_ = ::open(written_.c_str(), flags, 0666);
  if (fd_ < 0) return fail(errno, error);
  // Replacing a file keeps its permissions.
  if (exists && !direct_) ::fchmod(fd_, existing.st_mode & 07777);
  replaced_ = real;
  return true;
}

bool OutputFile::write(const void* data, std::size_t size, std::string& error) {
  if (fd_ < 0) return fail(EBADF, error);
  if (!write_all(fd_, data, size)) return fail(errno, error);
  return true;
}

bool OutputFile::commit(std::string& error) {
  if (fd_ < 0) return fail(EBADF, error);
  const int fd = fd_;
  fd_ = -1;
  // Some file systems (NFS, FUSE) only report a failed write when the file is closed.
  if (::close(fd) != 0) return fail(errno, error);
  if (!direct_ && ::rename(written_.c_str(), replaced_.c_str()) != 0) return fail(errno, error);
  written_.clear();
  return true;
}

void OutputFile::discard() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!direct_ && !written_.empty()) ::unlink(written_.c_str());
  written_.clear();
}

bool OutputFile::fail(int error_number, std::string& error) {
  error = cannot_write_message(target_.string(), error_number);
  discard();
  return false;
}

bool write_output_file(const fs::path& target, std::string_view contents, std::string& error) {
  OutputFile file;
  return file.open(target, error) && file.write(contents.data(), contents.size(), error) && file.commit(error);
}

// stdio forgets the errno of a failed flush, so a stream already in error is asked again with
// one byte: its output is incomplete anyway (docs/architecture.md, "Output files").
int check_stdout_at_exit(int exit_code) {
  std::cout.flush();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  int error_number = errno;
  if (flushed && !std::ferror(stdout) && std::cout) return exit_code;
  if (flushed) error_number = ::write(STDOUT_FILENO, "\n", 1) < 0 ? errno : EIO;
  std::cerr << "ringviz: cannot write output: " << std::strerror(error_number != 0 ? error_number : EIO) << "\n";
  return exit_code != 0 ? exit_code : 1;
}

}  // namespace ringviz
