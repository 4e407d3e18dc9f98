// Kubernetes resource quantities as text ("10Gi", "1k", "500m"): the syntax
// check and zero test that validation needs, and the canonical text the API
// machinery writes for a whole number of bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"

namespace base {

// Whether a quantity is zero ("0", "0Gi", "0.0", "-0e3"); an error with the
// API machinery's text when it is malformed. The syntax: a signed decimal
// number, then a binary (Ki..Ei), decimal (n u m "" k M G T P E) or exponent
// (e3) suffix.
Result<bool> QuantityIsZero(std::string_view text);

// The quantity as a whole number, rounded up as resource.Quantity.Value()
// rounds ("1Gi" -> 1073741824, "1.5k" -> 1500, "100m" -> 1). Errors: a
// malformed quantity (QuantityIsZero's texts) or one beyond int64.
Result<int64_t> QuantityAsInt64(std::string_view text);

// What resource.NewQuantity(value, BinarySI).String() gives: below 1024 in
// magnitude the decimal form with an SI suffix where exact ("999", "1k"),
// otherwise the largest binary suffix that divides exactly ("1536", "1Ki",
// "100Gi").
std::string FormatBinarySIQuantity(int64_t value);

}  // namespace base
