// Hostname: this machine's host name (in a Pod, the Pod's name), used as the
// default leader-election identity and as the source host of Events.
#pragma once

#include <string>

#include "base/result.h"

namespace base {

Result<std::string> Hostname();

}  // namespace base
