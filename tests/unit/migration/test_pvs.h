// Builders for the PersistentVolumes of the migration conformance tests
// (docs/migration.md §5 notation: NA(k: v...) = one term with {k In v...}).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "kube/api/core/v1/persistent_volume.h"
#include "migration/topology.h"

namespace migration::testing {

inline kube::NodeSelectorRequirement In(std::string key, std::vector<std::string> values) {
  return {std::move(key), "In", std::move(values)};
}

// NA(key: values...): one term with one requirement.
inline std::vector<kube::NodeSelectorTerm> Na(std::string key, std::vector<std::string> values) {
  return {kube::NodeSelectorTerm{{In(std::move(key), std::move(values))}}};
}

inline kube::PersistentVolume PvWith(kube::PersistentVolumeSource source,
                                     kube::StringMap labels = {},
                                     std::vector<kube::NodeSelectorTerm> affinity = {}) {
  kube::PersistentVolume pv;
  pv.metadata.name = "pv";
  pv.metadata.labels = std::move(labels);
  pv.spec.node_affinity = std::move(affinity);
  pv.spec.source = std::move(source);
  return pv;
}

// The label sets of TestTopologyTranslation.
inline kube::StringMap BetaLabels() {
  return {{std::string(kBetaZoneLabel), "us-east-1a"},
          {std::string(kBetaRegionLabel), "us-east-1"}};
}
inline kube::StringMap GaLabels() {
  return {{std::string(kGaZoneLabel), "us-east-1a"}, {std::string(kGaRegionLabel), "us-east-1"}};
}
inline kube::StringMap RegionalBetaLabels() {
  return {{std::string(kBetaZoneLabel), "europe-west1-b__europe-west1-c"}};
}
inline kube::StringMap RegionalGaLabels() {
  return {{std::string(kGaZoneLabel), "europe-west1-b__europe-west1-c"}};
}

}  // namespace migration::testing
