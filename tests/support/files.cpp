#include "tests/support/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace testsupport {
namespace {

base::Error OsError(std::string_view op, const std::string& path, int err) {
  return base::Error(std::string(op) + " " + path + ": " + std::strerror(err));
}

}  // namespace

base::Result<std::string> MakeTempDir(std::string_view prefix) {
  const char* tmp = std::getenv("TMPDIR");
  std::string templ = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/" +
                      std::string(prefix) + "XXXXXX";
  if (mkdtemp(templ.data()) == nullptr) return OsError("mkdtemp", templ, errno);
  return templ;
}

base::Status WriteFile(const std::string& path, std::string_view contents, int mode) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) return OsError("open", path, errno);
  // An existing file keeps its old mode through O_CREAT.
  if (fchmod(fd, static_cast<mode_t>(mode)) < 0) {
    int err = errno;
    close(fd);
    return OsError("chmod", path, err);
  }
  while (!contents.empty()) {
    ssize_t n = write(fd, contents.data(), contents.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      close(fd);
      return OsError("write", path, err);
    }
    contents.remove_prefix(static_cast<size_t>(n));
  }
  if (close(fd) < 0) return OsError("close", path, errno);
  return {};
}

}  // namespace testsupport
