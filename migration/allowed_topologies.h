// The allowedTopologies rewrite shared by the StorageClass translators
// (docs/migration.md §8.1).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kube/api/storage/v1/storage_class.h"

namespace migration {

// One term {`csi_key` in `zones`}: what a zone or zones parameter becomes.
std::vector<kube::TopologySelectorTerm> ZoneTopologyTerms(std::string_view csi_key,
                                                          std::vector<std::string> zones);

// Renames the Kubernetes zone keys (GA and beta) of `terms` to `csi_key`;
// values and other keys are kept.
void RenameZoneKeys(std::vector<kube::TopologySelectorTerm>& terms, std::string_view csi_key);

}  // namespace migration
