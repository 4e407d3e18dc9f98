// Names of objects: SanitizeName makes a string usable as one segment of an
// object name or label value, the way the CSI sidecars derive names from
// driver and host names (lease names, finalizers, holder identities); the
// IsDns1123* checks are apimachinery's validation of namespace and object
// names.
#pragma once

#include <string>
#include <string_view>

namespace kube {

// Every character outside [a-zA-Z0-9-] becomes '-'; a trailing '-' gets an 'X'
// appended (so the result is a valid name segment).
std::string SanitizeName(std::string_view name);

// A DNS-1123 label (e.g. a namespace name): at most 63 characters of
// [a-z0-9-], starting and ending with [a-z0-9].
bool IsDns1123Label(std::string_view name);

// A DNS-1123 subdomain (e.g. a Secret name): at most 253 characters,
// dot-separated labels as above.
bool IsDns1123Subdomain(std::string_view name);

}  // namespace kube
