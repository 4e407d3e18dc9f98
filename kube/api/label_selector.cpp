#include "kube/api/label_selector.h"

namespace kube {

std::string MatchLabelsQuery(const LabelSelector& selector) {
  std::string query;
  for (const auto& [key, value] : selector.match_labels) {  // StringMap iterates in key order
    if (!query.empty()) query += ',';
    query += key;
    query += '=';
    query += value;
  }
  return query;
}

}  // namespace kube
