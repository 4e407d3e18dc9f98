// metav1.Time as the API writes it: RFC 3339 in UTC with second precision
// (e.g. "2023-11-14T22:13:20Z"), for timestamps in objects we write.
#pragma once

#include <chrono>
#include <string>

namespace kube {

std::string FormatMetaTime(std::chrono::system_clock::time_point time);

}  // namespace kube
