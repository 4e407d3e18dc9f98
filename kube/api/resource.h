// ResourceTraits<T>: where a kind lives in the REST API, read from the facts
// the kind states about itself (kind.h), and ResourcePath<T>, the URL path of
// one object or (empty name) of the collection. Cluster-scoped kinds ignore
// the namespace; a namespaced kind with an empty namespace gives the
// all-namespaces collection. Path segments are percent-escaped.
#pragma once

#include <string>
#include <string_view>

#include "kube/api/kind.h"

namespace kube {

template <ResourceKind T>
struct ResourceTraits {
  static constexpr std::string_view kKind = T::kFacts.kind;
  static constexpr std::string_view kApiVersion = T::kFacts.api_version;
  static constexpr std::string_view kPlural = T::kFacts.plural;
  static constexpr bool kNamespaced = T::kFacts.scope == Scope::kNamespaced;
  static constexpr bool kHasStatusSubresource = T::kFacts.status_subresource;
};

// Appends `segment` percent-escaped: only RFC 3986 unreserved characters pass,
// so a name can never add a path segment or a query.
void AppendEscapedPathSegment(std::string& out, std::string_view segment);

// "/api/<version>" for the core group, "/apis/<group>/<version>" otherwise.
std::string GroupVersionPath(const KindFacts& facts);

template <ResourceKind T>
std::string ResourcePath(std::string_view ns, std::string_view name = {}) {
  std::string path = GroupVersionPath(T::kFacts);
  if (ResourceTraits<T>::kNamespaced && !ns.empty()) {
    path += "/namespaces/";
    AppendEscapedPathSegment(path, ns);
  }
  path += '/';
  path += T::kFacts.plural;
  if (!name.empty()) {
    path += '/';
    AppendEscapedPathSegment(path, name);
  }
  return path;
}

}  // namespace kube
