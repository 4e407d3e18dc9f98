#include "registrar/socket_file.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace registrar {

std::string RegistrationSocketPath(const std::string& dir, const std::string& driver_name) {
  return dir + "/" + driver_name + "-reg.sock";
}

base::Result<bool> SocketExists(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISSOCK(st.st_mode)) return true;
    return base::Error(fmt::format("file exists in socketPath {} but it's not a socket.: mode {:o}",
                                   path, st.st_mode & 07777));
  }
  if (errno == ENOENT) return false;
  return base::Error(
      fmt::format("failed to stat the socket {} with error: {}", path, std::strerror(errno)));
}

base::Status RemoveStaleSocket(const std::string& path) {
  base::Result<bool> exists = SocketExists(path);
  if (!exists.ok()) return exists.error();
  if (*exists && ::unlink(path.c_str()) != 0 && errno != ENOENT) {
    return base::Error(fmt::format("failed to remove stale socket {} with error: remove {}: {}",
                                   path, path, std::strerror(errno)));
  }
  return base::Status::Ok();
}

base::Status RemoveSocket(const std::string& path) {
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    return base::Error(fmt::format("remove {}: {}", path, std::strerror(errno)));
  }
  return base::Status::Ok();
}

}  // namespace registrar
