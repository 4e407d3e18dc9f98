// Topology terms (docs/provisioner.md §3.6): a term is a set of key=value
// segments that all hold at once (a zone, a zone and a rack, ...); a list of
// terms is a choice between them. The helpers here are the term arithmetic
// CreateVolume's accessibility requirements are built from - pure
// functions, no cache or API read:
//   - a term is kept sorted by key, and lists sort by length, then segments;
//   - Flatten turns a class's allowedTopologies (each requirement a key with
//     alternative values) into terms by distributing the values;
//   - TermOfLabels reads a node's term for a set of keys from its labels;
//   - SpreadOffset is the StatefulSet spreading of Immediate binding;
//   - the Go-style texts appear in upstream's error messages.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "csi/proto/csi.pb.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/storage_class.h"
#include "kube/api/string_map.h"

namespace provisioner {

using TopologySegment = std::pair<std::string, std::string>;  // key, value
using TopologyTerm = std::vector<TopologySegment>;            // sorted by key

// Every term allowedTopologies allows, each sorted; values of one
// requirement are alternatives, requirements of one selector term all hold.
std::vector<TopologyTerm> Flatten(const std::vector<kube::TopologySelectorTerm>& allowed);

// The term of `keys` in `labels`; nullopt when a key is missing.
std::optional<TopologyTerm> TermOfLabels(const kube::StringMap& labels,
                                         const std::vector<std::string>& keys);

// Whether every segment of `part` is in `whole` (both sorted); the empty
// term is in every term.
bool IsSubset(const TopologyTerm& part, const TopologyTerm& whole);

// Sorts terms (shorter first, then by segments) and drops duplicates.
void SortAndDeduplicate(std::vector<TopologyTerm>& terms);

// The rotation that spreads a StatefulSet's volumes over the terms:
// a claim named <claim>-<set>-<ordinal> hashes <set> (FNV-1, 32 bits) and
// adds the ordinal, so one replica's claims land together and consecutive
// replicas rotate; a name without a numeric last part hashes whole. Takes
// the result modulo `term_count` (> 0).
uint32_t SpreadOffset(std::string_view claim_name, uint32_t term_count);

// Terms as CSI topologies; empty terms are left out.
google::protobuf::RepeatedPtrField<csi::v1::Topology> ToCsi(const std::vector<TopologyTerm>& terms);

// The PV's nodeAffinity for the topologies the driver says the volume is
// accessible from: one term per non-empty topology, one In requirement per
// segment.
std::vector<kube::NodeSelectorTerm> NodeAffinityOf(
    const google::protobuf::RepeatedPtrField<csi::v1::Topology>& accessible);

// Go's %v of a term ("[{zone a} {rack 1}]"), a list of terms, a list of
// strings ("[a b]") and a map ("map[a:1 b:2]"), as upstream's messages print
// them.
std::string GoText(const TopologyTerm& term);
std::string GoText(const std::vector<TopologyTerm>& terms);
std::string GoText(const std::vector<std::string>& values);
std::string GoText(const std::vector<std::vector<std::string>>& lists);
std::string GoText(const kube::StringMap& map);

}  // namespace provisioner
