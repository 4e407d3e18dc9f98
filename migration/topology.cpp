#include "migration/topology.h"

#include <algorithm>
#include <string>
#include <vector>

#include "migration/split.h"

namespace migration {
namespace {

bool HasRequirement(const kube::PersistentVolume& pv, std::string_view key) {
  for (const auto& term : pv.spec.node_affinity) {
    for (const auto& requirement : term.match_expressions) {
      if (requirement.key == key) return true;
    }
  }
  return false;
}

bool HasValues(const kube::PersistentVolume& pv, std::string_view key) {
  for (const auto& term : pv.spec.node_affinity) {
    for (const auto& requirement : term.match_expressions) {
      if (requirement.key == key && !requirement.values.empty()) return true;
    }
  }
  return false;
}

// Renames every requirement keyed `from` when any of them has values;
// returns whether it did.
bool RenameKey(kube::PersistentVolume& pv, std::string_view from, std::string_view to) {
  if (!HasValues(pv, from)) return false;
  RenameRequirements(pv, from, to);
  return true;
}

void SortUnique(std::vector<std::string>& values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
}

std::string_view Trim(std::string_view s) {
  constexpr std::string_view kSpace = " \t\n\v\f\r";
  size_t first = s.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(kSpace) - first + 1);
}

std::vector<std::string> LabelValuesOf(std::string_view label, LabelValues how) {
  std::vector<std::string> values;
  auto add = [&values](std::string_view value) {
    value = Trim(value);
    if (!value.empty()) values.emplace_back(value);
  };
  if (how == LabelValues::kWhole) {
    add(label);
  } else {
    for (const auto& value : Split(label, kMultiZoneSeparator)) add(value);
  }
  SortUnique(values);
  return values;
}

}  // namespace

void RenameRequirements(kube::PersistentVolume& pv, std::string_view from, std::string_view to) {
  for (auto& term : pv.spec.node_affinity) {
    for (auto& requirement : term.match_expressions) {
      if (requirement.key == from) requirement.key = std::string(to);
    }
  }
}

std::vector<std::string> TopologyValues(const kube::PersistentVolume& pv, std::string_view key) {
  std::vector<std::string> values;
  for (const auto& term : pv.spec.node_affinity) {
    for (const auto& requirement : term.match_expressions) {
      if (requirement.key == key) {
        values.insert(values.end(), requirement.values.begin(), requirement.values.end());
      }
    }
  }
  SortUnique(values);
  return values;
}

TopologyLabels ChooseTopologyLabels(const kube::PersistentVolume& pv) {
  constexpr TopologyLabels kGa{kGaZoneLabel, kGaRegionLabel};
  constexpr TopologyLabels kBeta{kBetaZoneLabel, kBetaRegionLabel};
  if (HasRequirement(pv, kGaZoneLabel)) return kGa;
  if (HasRequirement(pv, kBetaZoneLabel)) return kBeta;
  if (pv.metadata.labels.contains(kGaZoneLabel)) return kGa;
  if (pv.metadata.labels.contains(kBetaZoneLabel)) return kBeta;
  return kGa;
}

void MoveTopology(kube::PersistentVolume& pv, std::string_view from, std::string_view csi_key,
                  LabelValues label_values) {
  if (RenameKey(pv, from, csi_key)) return;
  auto label = pv.metadata.labels.find(from);
  if (label == pv.metadata.labels.end()) return;
  std::vector<std::string> values = LabelValuesOf(label->second, label_values);
  if (values.empty()) return;
  auto& terms = pv.spec.node_affinity;
  if (terms.empty()) terms.emplace_back();
  for (auto& term : terms) {
    term.match_expressions.push_back({std::string(csi_key), "In", values});
  }
}

void TranslateZoneTopology(kube::PersistentVolume& pv, std::string_view csi_zone_key) {
  TopologyLabels labels = ChooseTopologyLabels(pv);
  MoveTopology(pv, labels.zone, csi_zone_key, LabelValues::kSplitMultiZone);
  if (labels.region == kBetaRegionLabel) RenameKey(pv, kBetaRegionLabel, kGaRegionLabel);
}

}  // namespace migration
