#include "kube/api/core/v1/node_affinity.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kube {
namespace {

std::optional<int64_t> ParseInteger(std::string_view text) {
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

bool Contains(const std::vector<std::string>& values, std::string_view value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

// nullopt: a requirement the API refuses, which fails its whole term.
std::optional<bool> MatchesLabel(const NodeSelectorRequirement& r, const StringMap& labels) {
  auto label = labels.find(r.key);
  const bool has = label != labels.end();
  const std::string_view op = r.operator_;
  if (op == "In" || op == "NotIn") {
    if (r.values.empty()) return std::nullopt;
    const bool in = has && Contains(r.values, label->second);
    return op == "In" ? in : !in;
  }
  if (op == "Exists" || op == "DoesNotExist") {
    if (!r.values.empty()) return std::nullopt;
    return op == "Exists" ? has : !has;
  }
  if (op == "Gt" || op == "Lt") {
    if (r.values.size() != 1) return std::nullopt;
    auto bound = ParseInteger(r.values[0]);
    if (!bound) return std::nullopt;
    auto value = has ? ParseInteger(label->second) : std::nullopt;
    if (!value) return false;
    return op == "Gt" ? *value > *bound : *value < *bound;
  }
  return std::nullopt;
}

std::optional<bool> MatchesField(const NodeSelectorRequirement& r, const Node& node) {
  if ((r.operator_ != "In" && r.operator_ != "NotIn") || r.values.size() != 1) {
    return std::nullopt;
  }
  // The only field a Node selector knows; any other key reads as "".
  const std::string_view field =
      r.key == "metadata.name" ? std::string_view(node.metadata.name) : std::string_view();
  return (field == r.values[0]) == (r.operator_ == "In");
}

bool MatchesTerm(const NodeSelectorTerm& term, const Node& node) {
  for (const NodeSelectorRequirement& r : term.match_expressions) {
    if (MatchesLabel(r, node.metadata.labels) != true) return false;
  }
  for (const NodeSelectorRequirement& r : term.match_fields) {
    if (MatchesField(r, node) != true) return false;
  }
  return !term.match_expressions.empty() || !term.match_fields.empty();
}

}  // namespace

bool MatchesNodeSelectorTerms(const Node& node, const std::vector<NodeSelectorTerm>& terms) {
  return std::any_of(terms.begin(), terms.end(),
                     [&](const NodeSelectorTerm& term) { return MatchesTerm(term, node); });
}

}  // namespace kube
