#include "provisioner/accessibility.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

#include "base/log.h"
#include "base/strconv.h"

namespace provisioner {

TopologyMemo::Entry TopologyMemo::Get(const std::string& claim_uid) const {
  std::lock_guard lock(mu_);
  auto it = entries_.find(claim_uid);
  return it == entries_.end() ? Entry() : it->second;
}

void TopologyMemo::SetKeys(const std::string& claim_uid, std::vector<std::string> keys) {
  std::lock_guard lock(mu_);
  entries_[claim_uid].keys = std::move(keys);
}

void TopologyMemo::SetNodeLabels(const std::string& claim_uid, kube::StringMap labels) {
  std::lock_guard lock(mu_);
  entries_[claim_uid].node_labels = std::move(labels);
}

void TopologyMemo::SetRequisite(const std::string& claim_uid, std::vector<TopologyTerm> terms) {
  std::lock_guard lock(mu_);
  entries_[claim_uid].requisite = std::move(terms);
}

void TopologyMemo::Forget(const std::string& claim_uid) {
  std::lock_guard lock(mu_);
  entries_.erase(claim_uid);
}

size_t TopologyMemo::size() const {
  std::lock_guard lock(mu_);
  return entries_.size();
}

namespace {

using Terms = std::vector<TopologyTerm>;
using KeySet = std::vector<std::string>;

// A step that failed; `reschedule` when the selected node's CSINode is gone.
struct TopologyError {
  std::string message;
  bool reschedule = false;
};

template <class T>
using Step = std::variant<T, TopologyError>;

// Node name -> the keys its CSINode registers for the driver (non-empty).
std::map<std::string, std::set<std::string>> RegisteredKeys(const TopologyView& view) {
  std::map<std::string, std::set<std::string>> registered;
  for (const auto& csi_node : view.csi_nodes.List()) {
    const kube::CSINodeDriver* driver = csi_node->spec.FindDriver(view.driver_name);
    if (!driver || driver->topology_keys.empty()) continue;
    registered[csi_node->metadata.name] = {driver->topology_keys.begin(),
                                           driver->topology_keys.end()};
  }
  return registered;
}

// One term per Node that registered all `keys` and carries them as labels.
Terms TermsOfNodesWith(const TopologyView& view, const KeySet& keys,
                       const std::map<std::string, std::set<std::string>>& registered) {
  Terms terms;
  for (const auto& node : view.nodes.List()) {
    auto it = registered.find(node->metadata.name);
    if (it == registered.end() || !std::all_of(keys.begin(), keys.end(), [&](const auto& k) {
          return it->second.contains(k);
        })) {
      continue;
    }
    std::optional<TopologyTerm> term = TermOfLabels(node->metadata.labels, keys);
    if (term && !term->empty()) terms.push_back(std::move(*term));
  }
  return terms;
}

// Immediate binding: every key set the driver registered, each aggregated on
// its own; empty when it registered none.
Step<Terms> AggregateEverywhere(const TopologyView& view, const std::string& uid) {
  if (Terms memo = view.memo.Get(uid).requisite; !memo.empty()) return memo;
  std::map<std::string, std::set<std::string>> registered = RegisteredKeys(view);
  std::set<KeySet> distinct;
  for (const auto& [node, keys] : registered) distinct.insert(KeySet(keys.begin(), keys.end()));
  if (distinct.empty()) {
    LOG_WARNING("No topology keys found on any node");
    return Terms();
  }
  Terms terms;
  for (const KeySet& keys : distinct) {
    Terms of_keys = TermsOfNodesWith(view, keys, registered);
    terms.insert(terms.end(), of_keys.begin(), of_keys.end());
  }
  if (terms.empty()) {
    return TopologyError{"topologyKeys " +
                         GoText(std::vector<KeySet>(distinct.begin(), distinct.end())) +
                         " were not found on any nodes"};
  }
  view.memo.SetRequisite(uid, terms);
  return terms;
}

// Delayed binding: the selected node's keys, aggregated over every node.
Step<Terms> AggregateKeys(const TopologyView& view, const std::string& uid, const KeySet& keys) {
  if (Terms memo = view.memo.Get(uid).requisite; !memo.empty()) return memo;
  Terms terms = TermsOfNodesWith(view, keys, RegisteredKeys(view));
  if (terms.empty()) {
    return TopologyError{"topologyKeys " + GoText(keys) + " were not found on any nodes"};
  }
  view.memo.SetRequisite(uid, terms);
  return terms;
}

Step<KeySet> SelectedNodeKeys(const TopologyView& view, const std::string& uid,
                              const std::string& node) {
  if (KeySet memo = view.memo.Get(uid).keys; !memo.empty()) return memo;
  auto csi_node = view.csi_nodes.Get("", node);
  if (!csi_node) {
    return TopologyError{"failed to get selected CSINode " + node + ": csinode.storage.k8s.io " +
                             base::GoQuote(node) + " not found",
                         /*reschedule=*/true};
  }
  const kube::CSINodeDriver* driver = csi_node->spec.FindDriver(view.driver_name);
  KeySet keys = driver ? driver->topology_keys : KeySet();
  if (!keys.empty()) view.memo.SetKeys(uid, keys);
  return keys;
}

Step<TopologyTerm> SelectedNodeTerm(const TopologyView& view, const std::string& uid,
                                    const std::string& node, const KeySet& keys) {
  kube::StringMap labels = view.memo.Get(uid).node_labels;
  if (!labels.empty()) {
    if (auto term = TermOfLabels(labels, keys)) return *term;
  }
  if (auto cached = view.nodes.Get("", node)) {
    labels = cached->metadata.labels;
    if (!labels.empty()) view.memo.SetNodeLabels(uid, labels);
    if (auto term = TermOfLabels(labels, keys)) return *term;
  }
  return TopologyError{"topology labels from selected node " + GoText(labels) +
                       " does not match topology keys from CSINode " + GoText(keys)};
}

struct Requisite {
  Terms terms;
  TopologyTerm selected;  // the selected node's term, if there is one
};

// Step 1 and 2 of upstream: the requisite terms, unsorted; no terms and no
// error means no requirement.
Step<Requisite> RequisiteTerms(const TopologyView& view, const kube::PersistentVolumeClaim& claim,
                               const kube::StorageClass& storage_class, const std::string& node) {
  const std::string uid = claim.metadata.uid.str();
  const auto& allowed = storage_class.allowed_topologies;
  Requisite requisite;
  KeySet keys;
  if (!node.empty()) {
    Step<KeySet> found = SelectedNodeKeys(view, uid, node);
    if (auto* error = std::get_if<TopologyError>(&found)) return *error;
    keys = std::get<KeySet>(std::move(found));
    if (keys.empty()) return TopologyError{"no topology key found for node " + node};
    Step<TopologyTerm> term = SelectedNodeTerm(view, uid, node, keys);
    if (auto* error = std::get_if<TopologyError>(&term)) return *error;
    requisite.selected = std::get<TopologyTerm>(std::move(term));
    if (view.options.strict) {
      Terms flat = Flatten(allowed);
      if (!allowed.empty() && std::none_of(flat.begin(), flat.end(), [&](const auto& t) {
            return IsSubset(t, requisite.selected);
          })) {
        return TopologyError{"selected node '" + base::GoQuote(node) + "' topology '" +
                             GoText(requisite.selected) +
                             "' is not in allowed topologies: " + GoText(flat)};
      }
      requisite.terms.push_back(requisite.selected);
      return requisite;
    }
  }
  if (!allowed.empty()) {
    requisite.terms = Flatten(allowed);
    return requisite;
  }
  if (node.empty() && !view.options.immediate) return requisite;
  Step<Terms> aggregated =
      node.empty() ? AggregateEverywhere(view, uid) : AggregateKeys(view, uid, keys);
  if (auto* error = std::get_if<TopologyError>(&aggregated)) return *error;
  requisite.terms = std::get<Terms>(std::move(aggregated));
  if (requisite.terms.empty()) return TopologyError{"no available topology found"};
  return requisite;
}

// Step 3 of upstream: the requisite terms rotated.
Step<Terms> PreferredTerms(const TopologyView& view, const kube::PersistentVolumeClaim& claim,
                           const std::string& node, const Requisite& requisite) {
  const Terms& terms = requisite.terms;
  size_t first = 0;
  if (node.empty()) {
    first = SpreadOffset(claim.metadata.name, static_cast<uint32_t>(terms.size()));
  } else if (!view.options.strict) {
    auto it = std::find_if(terms.begin(), terms.end(),
                           [&](const auto& t) { return IsSubset(t, requisite.selected); });
    if (it == terms.end()) {
      return TopologyError{"topology " + GoText(requisite.selected) + " from selected node " +
                           base::GoQuote(node) + " is not in requisite: " + GoText(terms)};
    }
    first = it - terms.begin();
  }
  Terms rotated(terms.begin() + first, terms.end());
  rotated.insert(rotated.end(), terms.begin(), terms.begin() + first);
  return rotated;
}

ProvisionFailure FailureOf(TopologyError error) {
  if (error.reschedule) {
    return {base::Error(std::move(error.message)), ProvisioningState::kReschedule};
  }
  return {base::Error("error generating accessibility requirements: " + error.message),
          ProvisioningState::kNoChange};
}

}  // namespace

std::string TopologyRecord(const csi::v1::TopologyRequirement& requirement) {
  auto list = [](const auto& topologies) {
    nlohmann::json out = nlohmann::json::array();
    for (const csi::v1::Topology& topology : topologies) {
      out.push_back(std::map<std::string, std::string>(topology.segments().begin(),
                                                       topology.segments().end()));
    }
    return out;
  };
  return nlohmann::json{{"requisite", list(requirement.requisite())},
                        {"preferred", list(requirement.preferred())}}
      .dump();
}

std::optional<csi::v1::TopologyRequirement> ParseTopologyRecord(std::string_view record) {
  nlohmann::json parsed = nlohmann::json::parse(record, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return std::nullopt;
  csi::v1::TopologyRequirement requirement;
  for (const char* field : {"requisite", "preferred"}) {
    const nlohmann::json& list = parsed[field];
    if (!list.is_array()) return std::nullopt;
    auto* topologies = std::string_view(field) == "requisite" ? requirement.mutable_requisite()
                                                              : requirement.mutable_preferred();
    for (const nlohmann::json& topology : list) {
      if (!topology.is_object()) return std::nullopt;
      auto& segments = *topologies->Add()->mutable_segments();
      for (const auto& [key, value] : topology.items()) {
        if (!value.is_string()) return std::nullopt;
        segments[key] = value.get<std::string>();
      }
    }
  }
  return requirement;
}

AccessibilityResult AccessibilityRequirements(const TopologyView& view,
                                              const kube::PersistentVolumeClaim& claim,
                                              const kube::StorageClass& storage_class,
                                              std::string_view selected_node) {
  const std::string node(selected_node);
  Step<Requisite> found = RequisiteTerms(view, claim, storage_class, node);
  if (auto* error = std::get_if<TopologyError>(&found)) return FailureOf(std::move(*error));
  Requisite& requisite = std::get<Requisite>(found);
  SortAndDeduplicate(requisite.terms);
  // allowedTopologies of empty terms: as without topology.
  if (requisite.terms.empty()) return std::nullopt;
  Step<Terms> preferred = PreferredTerms(view, claim, node, requisite);
  if (auto* error = std::get_if<TopologyError>(&preferred)) return FailureOf(std::move(*error));
  csi::v1::TopologyRequirement requirement;
  *requirement.mutable_requisite() = ToCsi(requisite.terms);
  *requirement.mutable_preferred() = ToCsi(std::get<Terms>(preferred));
  return requirement;
}

}  // namespace provisioner
