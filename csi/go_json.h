// Go's encoding/json string encoding (with its default HTML escaping), for
// the JSON that the CSI call logs share with csi-lib-utils' protosanitizer.
#pragma once

#include <string>
#include <string_view>

namespace csi {

// Appends `s` to `out` as a quoted JSON string: <, > and & as \u003c...,
// invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped.
void AppendGoJsonString(std::string* out, std::string_view s);

}  // namespace csi
