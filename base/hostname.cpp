#include "base/hostname.h"

#include <unistd.h>

#include <climits>

namespace base {

Result<std::string> Hostname() {
  char host[HOST_NAME_MAX + 1] = {};
  if (gethostname(host, sizeof(host) - 1) != 0) return Error("gethostname failed");
  return std::string(host);
}

}  // namespace base
