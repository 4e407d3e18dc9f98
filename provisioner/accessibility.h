// AccessibilityRequirements: where CreateVolume asks the driver to put a
// claim's volume (docs/provisioner.md §3.6), as upstream's
// GenerateAccessibilityRequirements, for a driver with
// VOLUME_ACCESSIBILITY_CONSTRAINTS and the Topology gate on:
//   - requisite: with a selected node and --strict-topology, that node's term
//     (which must lie in allowedTopologies); else the class's
//     allowedTopologies flattened; else every term the driver registered on
//     Nodes (for a selected node: of its keys; for Immediate binding: of
//     every key set the driver registered, or nothing at all without
//     --immediate-topology);
//   - preferred: the same terms rotated - to the selected node's term, or by
//     the claim name's StatefulSet spread for Immediate binding.
// A node counts under a key set only when its CSINode registers those keys
// for the driver and its labels carry them.
//
// TopologyMemo keeps what the first attempt of a claim read - the selected
// node's keys and labels and the aggregated terms - so a retry asks for the
// same place even when the Node or CSINode went away meanwhile (§3.6, lib
// #152); the caller forgets a claim once its CreateVolume outcome is known.
// Thread-safe.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "csi/proto/csi.pb.h"
#include "kube/api/core/v1/node.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/storage/v1/csi_node.h"
#include "kube/api/storage/v1/storage_class.h"
#include "kube/runtime/store.h"
#include "provisioner/provisioning_state.h"
#include "provisioner/topology_terms.h"

namespace provisioner {

class TopologyMemo {
 public:
  struct Entry {
    std::vector<std::string> keys;  // the selected node's, from its CSINode
    kube::StringMap node_labels;    // the selected node's
    std::vector<TopologyTerm> requisite;
  };

  // The claim's entry (empty when there is none).
  Entry Get(const std::string& claim_uid) const;
  void SetKeys(const std::string& claim_uid, std::vector<std::string> keys);
  void SetNodeLabels(const std::string& claim_uid, kube::StringMap labels);
  void SetRequisite(const std::string& claim_uid, std::vector<TopologyTerm> terms);
  void Forget(const std::string& claim_uid);
  size_t size() const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, Entry> entries_;  // guarded by mu_
};

struct TopologyOptions {
  bool strict = false;    // --strict-topology
  bool immediate = true;  // --immediate-topology
};

// The caches and flags requirements are made from; all must outlive it.
struct TopologyView {
  const std::string& driver_name;
  const kube::Store<kube::CSINode>& csi_nodes;
  const kube::Store<kube::Node>& nodes;
  TopologyOptions options;
  TopologyMemo& memo;
};

// No requirement (nullopt), or why there is none: kReschedule when the
// selected node's CSINode is missing (the scheduler should pick again),
// kNoChange with "error generating accessibility requirements: ..." else.
using AccessibilityResult =
    std::variant<std::optional<csi::v1::TopologyRequirement>, ProvisionFailure>;

// §9.8: the requirements as the claim's record annotation keeps them
// (JSON: {"requisite": [{key: value, ...}], "preferred": [...]}), and back;
// nullopt for a record that does not parse.
std::string TopologyRecord(const csi::v1::TopologyRequirement& requirement);
std::optional<csi::v1::TopologyRequirement> ParseTopologyRecord(std::string_view record);

AccessibilityResult AccessibilityRequirements(const TopologyView& view,
                                              const kube::PersistentVolumeClaim& claim,
                                              const kube::StorageClass& storage_class,
                                              std::string_view selected_node);

}  // namespace provisioner
