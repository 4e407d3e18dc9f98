#include "snapshot/feature_gates.h"

#include <utility>

#include "component/apiserver_feature_gates.h"

namespace snapshot {

const std::vector<component::FeatureSpec>& KnownFeatureSpecs() {
  static const std::vector<component::FeatureSpec> specs = [] {
    std::vector<component::FeatureSpec> all = component::ApiServerFeatureSpecs();
    all.push_back({kCSIVolumeGroupSnapshot, true, component::FeatureStage::kGA});
    all.push_back({kReleaseLeaderElectionOnExit, false, component::FeatureStage::kAlpha});
    return component::SortedByName(std::move(all));
  }();
  return specs;
}

}  // namespace snapshot
