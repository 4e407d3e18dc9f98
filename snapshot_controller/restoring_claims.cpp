#include "snapshot_controller/restoring_claims.h"

#include <string_view>

namespace snapshot_controller {
namespace {

constexpr std::string_view kSnapshotApiGroup = "snapshot.storage.k8s.io";

}  // namespace

std::optional<std::string> ClaimRestoringFrom(
    const kube::VolumeSnapshot& snapshot, const kube::Store<kube::PersistentVolumeClaim>& claims) {
  std::optional<std::string> first;
  for (const auto& claim : claims.List()) {
    const auto& source = claim->spec.data_source;
    if (claim->metadata.namespace_ != snapshot.metadata.namespace_ || !source ||
        source->kind != kube::VolumeSnapshot::kFacts.kind ||
        source->api_group != kSnapshotApiGroup || source->name != snapshot.metadata.name ||
        claim->status.phase != "Pending") {
      continue;
    }
    if (!first || claim->metadata.name < *first) first = claim->metadata.name;
  }
  if (!first) return std::nullopt;
  return snapshot.metadata.namespace_ + "/" + *first;
}

}  // namespace snapshot_controller
