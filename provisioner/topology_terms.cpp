#include "provisioner/topology_terms.h"

#include <algorithm>
#include <charconv>

namespace provisioner {
namespace {

// Go's slices.Compare order of upstream's terms: length first, then the
// segments in order.
bool TermLess(const TopologyTerm& a, const TopologyTerm& b) {
  if (a.size() != b.size()) return a.size() < b.size();
  return a < b;
}

// FNV-1 (multiply, then xor), 32 bits: Go's hash/fnv New32.
uint32_t Fnv1(std::string_view text) {
  uint32_t hash = 2166136261u;
  for (unsigned char c : text) {
    hash *= 16777619u;
    hash ^= c;
  }
  return hash;
}

template <class T, class Print>
std::string GoList(const std::vector<T>& items, Print print) {
  std::string text = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) text += " ";
    text += print(items[i]);
  }
  return text + "]";
}

}  // namespace

std::vector<TopologyTerm> Flatten(const std::vector<kube::TopologySelectorTerm>& allowed) {
  std::vector<TopologyTerm> flattened;
  for (const kube::TopologySelectorTerm& selector : allowed) {
    std::vector<TopologyTerm> terms;
    for (const kube::TopologySelectorLabelRequirement& requirement :
         selector.match_label_expressions) {
      std::vector<TopologyTerm> distributed;
      for (const std::string& value : requirement.values) {
        if (terms.empty()) {
          distributed.push_back({{requirement.key, value}});
          continue;
        }
        for (const TopologyTerm& term : terms) {
          distributed.push_back(term);
          distributed.back().emplace_back(requirement.key, value);
        }
      }
      terms = std::move(distributed);
    }
    flattened.insert(flattened.end(), terms.begin(), terms.end());
  }
  for (TopologyTerm& term : flattened) std::sort(term.begin(), term.end());
  return flattened;
}

std::optional<TopologyTerm> TermOfLabels(const kube::StringMap& labels,
                                         const std::vector<std::string>& keys) {
  TopologyTerm term;
  for (const std::string& key : keys) {
    auto it = labels.find(key);
    if (it == labels.end()) return std::nullopt;
    term.emplace_back(key, it->second);
  }
  std::sort(term.begin(), term.end());
  return term;
}

bool IsSubset(const TopologyTerm& part, const TopologyTerm& whole) {
  if (part.empty()) return true;
  size_t matched = 0;
  for (const TopologySegment& segment : whole) {
    if (segment.first != part[matched].first) continue;
    if (segment.second != part[matched].second) return false;
    if (++matched == part.size()) return true;
  }
  return false;
}

void SortAndDeduplicate(std::vector<TopologyTerm>& terms) {
  std::sort(terms.begin(), terms.end(), TermLess);
  terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
}

uint32_t SpreadOffset(std::string_view claim_name, uint32_t term_count) {
  std::string_view hashed = claim_name;
  uint32_t ordinal = 0;
  if (size_t dash = claim_name.rfind('-'); dash != std::string_view::npos) {
    std::string_view suffix = claim_name.substr(dash + 1);
    uint32_t parsed = 0;
    auto [end, error] = std::from_chars(suffix.data(), suffix.data() + suffix.size(), parsed);
    if (!suffix.empty() && error == std::errc() && end == suffix.data() + suffix.size()) {
      ordinal = parsed;
      hashed = claim_name.substr(0, dash);
      if (size_t set_dash = hashed.rfind('-'); set_dash != std::string_view::npos) {
        hashed = hashed.substr(set_dash + 1);
      }
    }
  }
  return (Fnv1(hashed) + ordinal) % term_count;
}

google::protobuf::RepeatedPtrField<csi::v1::Topology> ToCsi(
    const std::vector<TopologyTerm>& terms) {
  google::protobuf::RepeatedPtrField<csi::v1::Topology> topologies;
  for (const TopologyTerm& term : terms) {
    if (term.empty()) continue;
    auto& segments = *topologies.Add()->mutable_segments();
    for (const auto& [key, value] : term) segments[key] = value;
  }
  return topologies;
}

std::vector<kube::NodeSelectorTerm> NodeAffinityOf(
    const google::protobuf::RepeatedPtrField<csi::v1::Topology>& accessible) {
  std::vector<kube::NodeSelectorTerm> terms;
  for (const csi::v1::Topology& topology : accessible) {
    if (topology.segments().empty()) continue;
    // Upstream walks a Go map (random order); sorted by key here.
    TopologyTerm segments(topology.segments().begin(), topology.segments().end());
    std::sort(segments.begin(), segments.end());
    kube::NodeSelectorTerm& term = terms.emplace_back();
    for (auto& [key, value] : segments) {
      term.match_expressions.push_back(
          {.key = std::move(key), .operator_ = "In", .values = {std::move(value)}});
    }
  }
  return terms;
}

std::string GoText(const TopologyTerm& term) {
  return GoList(term,
                [](const TopologySegment& s) { return "{" + s.first + " " + s.second + "}"; });
}

std::string GoText(const std::vector<TopologyTerm>& terms) {
  return GoList(terms, [](const TopologyTerm& term) { return GoText(term); });
}

std::string GoText(const std::vector<std::string>& values) {
  return GoList(values, [](const std::string& value) { return value; });
}

std::string GoText(const std::vector<std::vector<std::string>>& lists) {
  return GoList(lists, [](const std::vector<std::string>& list) { return GoText(list); });
}

std::string GoText(const kube::StringMap& map) {
  std::string text = "map[";
  bool first = true;
  for (const auto& [key, value] : map) {
    if (!first) text += " ";
    first = false;
    text += key + ":" + value;
  }
  return text + "]";
}

}  // namespace provisioner
