// SanitizeName: a string made usable as one segment of an object name or
// label value, the way the CSI sidecars derive names from driver and host
// names (lease names, finalizers, holder identities).
#pragma once

#include <string>
#include <string_view>

namespace kube {

// Every character outside [a-zA-Z0-9-] becomes '-'; a trailing '-' gets an 'X'
// appended (so the result is a valid name segment).
std::string SanitizeName(std::string_view name);

}  // namespace kube
