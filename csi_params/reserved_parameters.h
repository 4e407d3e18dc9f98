// The reserved keys of a class's parameters (docs/snapshots.md §3.4 create
// step 4): keys under csi.storage.k8s.io/ are the sidecars' own (Secret
// templates, extra metadata) and never reach the driver. Each sidecar knows
// its own list of them; any other key under the prefix is an error, as
// upstream's sidecars treat it. Shared by every sidecar that passes a
// class's parameters to the driver.
#pragma once

#include <map>
#include <span>
#include <string>
#include <string_view>

#include "base/result.h"
#include "kube/api/string_map.h"

namespace csi_params {

inline constexpr std::string_view kReservedParameterPrefix = "csi.storage.k8s.io/";

// `parameters` without the keys under kReservedParameterPrefix, each of
// which must be one of `known`. An unknown one is the error "found unknown
// parameter key \"<key>\" with reserved namespace csi.storage.k8s.io/" (the
// first such key in order), which the caller wraps in its own words.
base::Result<std::map<std::string, std::string>> StripReservedParameters(
    const kube::StringMap& parameters, std::span<const std::string_view> known);

}  // namespace csi_params
