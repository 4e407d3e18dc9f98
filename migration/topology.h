// The node-affinity rewrite shared by the PV translators (docs/migration.md §2.0
// and the vSphere variant of §2.6): Kubernetes zone/region topology, from
// nodeAffinity or from the PV's zone label, becomes the driver's CSI
// topology key. None of these functions fails a translation.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kube/api/core/v1/persistent_volume.h"

namespace migration {

inline constexpr std::string_view kGaZoneLabel = "topology.kubernetes.io/zone";
inline constexpr std::string_view kGaRegionLabel = "topology.kubernetes.io/region";
inline constexpr std::string_view kBetaZoneLabel = "failure-domain.beta.kubernetes.io/zone";
inline constexpr std::string_view kBetaRegionLabel = "failure-domain.beta.kubernetes.io/region";
// Separates the zones of a multi-zone label value.
inline constexpr std::string_view kMultiZoneSeparator = "__";

// The Kubernetes zone and region keys a PV uses: GA or beta.
struct TopologyLabels {
  std::string_view zone;
  std::string_view region;
};

// The flavour to translate, first match wins: a GA zone requirement in
// nodeAffinity, a beta zone requirement, a GA zone label, a beta zone label;
// GA otherwise.
TopologyLabels ChooseTopologyLabels(const kube::PersistentVolume& pv);

// Renames the key of every nodeAffinity requirement keyed `from` to `to`,
// operator, values and terms untouched.
void RenameRequirements(kube::PersistentVolume& pv, std::string_view from, std::string_view to);

// The values of all nodeAffinity requirements keyed `key`, in every term,
// deduplicated and sorted.
std::vector<std::string> TopologyValues(const kube::PersistentVolume& pv, std::string_view key);

// How a label value becomes requirement values.
enum class LabelValues { kSplitMultiZone, kWhole };

// Moves topology keyed `from` to `csi_key`. When some nodeAffinity
// requirement keyed `from` has values, every requirement keyed `from` is
// renamed in place (operator, values and terms untouched). Otherwise, when
// the PV has label `from`, its values (split on "__" or whole, then trimmed,
// without empty ones, deduplicated and sorted) are appended as
// `{csi_key In values}` to every term, creating one term if there is none;
// nothing changes when no value is left.
void MoveTopology(kube::PersistentVolume& pv, std::string_view from, std::string_view csi_key,
                  LabelValues label_values);

// §2.0 as used by GCE PD, EBS and Cinder: the chosen zone key moves to
// `csi_zone_key` (labels split on "__"); with the beta flavour, beta region
// requirements are renamed to the GA region key. Region labels are never
// copied into nodeAffinity.
void TranslateZoneTopology(kube::PersistentVolume& pv, std::string_view csi_zone_key);

}  // namespace migration
