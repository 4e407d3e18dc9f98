#include "migration/allowed_topologies.h"

#include <utility>

#include "migration/topology.h"

namespace migration {

std::vector<kube::TopologySelectorTerm> ZoneTopologyTerms(std::string_view csi_key,
                                                          std::vector<std::string> zones) {
  kube::TopologySelectorLabelRequirement requirement{std::string(csi_key), std::move(zones)};
  return {kube::TopologySelectorTerm{{std::move(requirement)}}};
}

void RenameZoneKeys(std::vector<kube::TopologySelectorTerm>& terms, std::string_view csi_key) {
  for (auto& term : terms) {
    for (auto& requirement : term.match_label_expressions) {
      if (requirement.key == kGaZoneLabel || requirement.key == kBetaZoneLabel) {
        requirement.key = std::string(csi_key);
      }
    }
  }
}

}  // namespace migration
