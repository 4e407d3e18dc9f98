// LabelSelector (meta/v1): which objects a VolumeGroupSnapshot covers. Only
// matchLabels selects (docs/snapshots.md §4.7: upstream lists PVCs by
// matchLabels alone); matchExpressions is decoded so it can be reported.
#pragma once

#include <string>
#include <tuple>
#include <vector>

#include "kube/api/field.h"
#include "kube/api/string_map.h"

namespace kube {

struct LabelSelectorRequirement {
  std::string key;
  std::string operator_;  // In, NotIn, Exists, DoesNotExist
  std::vector<std::string> values = {};

  bool operator==(const LabelSelectorRequirement&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("key", &LabelSelectorRequirement::key),
        Field("operator", &LabelSelectorRequirement::operator_),
        Field("values", &LabelSelectorRequirement::values),
    };
  }
};

struct LabelSelector {
  StringMap match_labels = {};
  std::vector<LabelSelectorRequirement> match_expressions = {};

  bool operator==(const LabelSelector&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("matchLabels", &LabelSelector::match_labels),
        Field("matchExpressions", &LabelSelector::match_expressions),
    };
  }
};

// matchLabels as a list query's labelSelector: "k1=v1,k2=v2", keys sorted
// (as the API server's own formatting); "" selects everything.
std::string MatchLabelsQuery(const LabelSelector& selector);

// The whole selector as Go's metav1.FormatLabelSelector writes it in
// messages: requirements sorted by key, "k=v", "k in (a,b)", "k notin (a,b)",
// "k" (Exists), "!k" (DoesNotExist), joined by ","; "<none>" when it selects
// everything, "<error>" for an operator that is unknown or has the wrong
// number of values.
std::string FormatLabelSelector(const LabelSelector& selector);

}  // namespace kube
