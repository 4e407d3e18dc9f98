// Whether a Node satisfies a PersistentVolume's required nodeAffinity, with
// the scheduler's rules: the terms are ORed, the requirements of a term
// ANDed; a term with no requirement matches no node, and a term with a
// requirement the API would refuse (an unknown operator, In without values,
// Gt with a value that is no integer, ...) matches none either.
// matchExpressions test the node's labels; matchFields test its name
// ("metadata.name", In or NotIn one value).
#pragma once

#include <vector>

#include "kube/api/core/v1/node.h"
#include "kube/api/core/v1/persistent_volume.h"

namespace kube {

bool MatchesNodeSelectorTerms(const Node& node, const std::vector<NodeSelectorTerm>& terms);

}  // namespace kube
