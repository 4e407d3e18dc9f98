// The node-affinity rewrite of the CSI -> in-tree PV translators
// (docs/migration.md §8.3): the driver's topology keys become the Kubernetes
// zone (and region) keys, and the PV gets the matching labels, so that a PV
// written back in in-tree form schedules as the in-tree plugin's did.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"

namespace migration {

// The region all `zones` belong to, or an error naming why there is not
// exactly one (GceRegionFromZones, AwsRegionFromZones).
using RegionParser = base::Result<std::string> (*)(const std::vector<std::string>& zones);

// The one region `region_of_zone` gives all `zones`: what the region parsers
// share. Errors: "no zones specified", the first error of
// `region_of_zone`, "multiple or no regions gotten from zones, got:
// map[<r1>:{} <r2>:{}]".
base::Result<std::string> CommonRegion(
    const std::vector<std::string>& zones,
    base::Result<std::string> (*region_of_zone)(const std::string& zone));

// For GCE PD, EBS (with their region parser) and Cinder (`region_of` null):
// requirements keyed `csi_zone_key` are renamed to the zone key of
// ChooseTopologyLabels. With a parser, every term without a region
// requirement gets {region In [parser(its zone values)]}, and the region
// label is set, unless present, when all terms name one region. The zone
// label is set, unless present, to the sorted zone values joined by "__".
// Error: "Failed to handle region topology. error: <parser's error>" (also
// for a term without zone values: "no zones specified").
base::Status TranslateZoneTopologyToInTree(kube::PersistentVolume& pv,
                                           std::string_view csi_zone_key, RegionParser region_of);

// The error of a PV translator whose topology translation failed:
// "failed to translate topology. PV:<pv name>. Error:<error>". Upstream
// prints the whole PV struct where we print its name (§8.3).
base::Error TopologyToInTreeError(const kube::PersistentVolume& pv, const base::Error& error);

// For vSphere: requirements keyed `csi_zone_key` and `csi_region_key` are
// renamed to the zone and region keys of ChooseTopologyLabels; each label is
// set, unless present, to the first of its sorted values. Never fails.
void TranslateVsphereTopologyToInTree(kube::PersistentVolume& pv, std::string_view csi_zone_key,
                                      std::string_view csi_region_key);

}  // namespace migration
