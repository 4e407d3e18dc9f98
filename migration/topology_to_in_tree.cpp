#include "migration/topology_to_in_tree.h"

#include <set>
#include <string>
#include <vector>

#include "migration/go_text.h"
#include "migration/split.h"
#include "migration/topology.h"

namespace migration {
namespace {

bool TermHasKey(const kube::NodeSelectorTerm& term, std::string_view key) {
  for (const auto& requirement : term.match_expressions) {
    if (requirement.key == key) return true;
  }
  return false;
}

std::vector<std::string> TermValuesOf(const kube::NodeSelectorTerm& term, std::string_view key) {
  std::vector<std::string> values;
  for (const auto& requirement : term.match_expressions) {
    if (requirement.key == key) {
      values.insert(values.end(), requirement.values.begin(), requirement.values.end());
    }
  }
  return values;
}

void SetLabelUnlessPresent(kube::PersistentVolume& pv, std::string_view key, std::string value) {
  if (!pv.metadata.labels.contains(key)) pv.metadata.labels[key] = std::move(value);
}

// Gives each term without a region requirement the region of its zones; the
// region label follows when the terms agree on one region.
base::Status AddRegionTopology(kube::PersistentVolume& pv, RegionParser region_of) {
  TopologyLabels labels = ChooseTopologyLabels(pv);
  for (auto& term : pv.spec.node_affinity) {
    if (TermHasKey(term, labels.region)) continue;
    auto region = region_of(TermValuesOf(term, labels.zone));
    if (!region.ok()) return region.error();
    term.match_expressions.push_back({std::string(labels.region), "In", {std::move(*region)}});
  }
  std::vector<std::string> regions = TopologyValues(pv, labels.region);
  if (regions.size() == 1) SetLabelUnlessPresent(pv, labels.region, std::move(regions[0]));
  return base::Status::Ok();
}

// Sets label `key` from the first of the requirement values keyed `key`.
void LabelFromFirstValue(kube::PersistentVolume& pv, std::string_view key) {
  std::vector<std::string> values = TopologyValues(pv, key);
  if (!values.empty()) SetLabelUnlessPresent(pv, key, std::move(values[0]));
}

}  // namespace

base::Result<std::string> CommonRegion(
    const std::vector<std::string>& zones,
    base::Result<std::string> (*region_of_zone)(const std::string& zone)) {
  if (zones.empty()) return base::Error("no zones specified");
  std::set<std::string> regions;
  for (const auto& zone : zones) {
    auto region = region_of_zone(zone);
    if (!region.ok()) return region.error();
    regions.insert(std::move(*region));
  }
  if (regions.size() != 1) {
    return base::Error("multiple or no regions gotten from zones, got: " + GoSetString(regions));
  }
  return *regions.begin();
}

base::Status TranslateZoneTopologyToInTree(kube::PersistentVolume& pv,
                                           std::string_view csi_zone_key, RegionParser region_of) {
  std::string_view zone_key = ChooseTopologyLabels(pv).zone;
  RenameRequirements(pv, csi_zone_key, zone_key);
  if (region_of != nullptr) {
    base::Status added = AddRegionTopology(pv, region_of);
    if (!added.ok()) {
      return base::Error("Failed to handle region topology. error: " + added.error().message);
    }
  }
  std::vector<std::string> zones = TopologyValues(pv, zone_key);
  if (!zones.empty()) SetLabelUnlessPresent(pv, zone_key, Join(zones, kMultiZoneSeparator));
  return base::Status::Ok();
}

base::Error TopologyToInTreeError(const kube::PersistentVolume& pv, const base::Error& error) {
  return base::Error("failed to translate topology. PV:" + pv.metadata.name +
                     ". Error:" + error.message);
}

void TranslateVsphereTopologyToInTree(kube::PersistentVolume& pv, std::string_view csi_zone_key,
                                      std::string_view csi_region_key) {
  TopologyLabels labels = ChooseTopologyLabels(pv);
  RenameRequirements(pv, csi_zone_key, labels.zone);
  RenameRequirements(pv, csi_region_key, labels.region);
  LabelFromFirstValue(pv, labels.zone);
  LabelFromFirstValue(pv, labels.region);
}

}  // namespace migration
