// ResourceTraits<T>: where a kind lives in the REST API, and ResourcePath<T>,
// the URL path of one object or (empty name) of the collection. Cluster-scoped
// kinds ignore the namespace; a namespaced kind with an empty namespace gives
// the all-namespaces collection. Path segments are percent-escaped.
#pragma once

#include <string>
#include <string_view>

#include "kube/api/storage/v1/csi_node.h"
#include "kube/api/core/v1/event.h"
#include "kube/api/coordination/v1/lease.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/secret.h"
#include "kube/api/storage/v1/volume_attachment.h"

namespace kube {

template <class T>
struct ResourceTraits;

// Facts shared by every specialisation: kind and apiVersion come from the type.
template <class T, bool namespaced>
struct ResourceTraitsBase {
  static constexpr std::string_view kKind = T::kKind;
  static constexpr std::string_view kApiVersion = T::kApiVersion;
  static constexpr bool kNamespaced = namespaced;
};

template <>
struct ResourceTraits<VolumeAttachment> : ResourceTraitsBase<VolumeAttachment, false> {
  static constexpr std::string_view kGroupVersionPath = "/apis/storage.k8s.io/v1";
  static constexpr std::string_view kPlural = "volumeattachments";
};

template <>
struct ResourceTraits<PersistentVolume> : ResourceTraitsBase<PersistentVolume, false> {
  static constexpr std::string_view kGroupVersionPath = "/api/v1";
  static constexpr std::string_view kPlural = "persistentvolumes";
};

template <>
struct ResourceTraits<CSINode> : ResourceTraitsBase<CSINode, false> {
  static constexpr std::string_view kGroupVersionPath = "/apis/storage.k8s.io/v1";
  static constexpr std::string_view kPlural = "csinodes";
};

template <>
struct ResourceTraits<Secret> : ResourceTraitsBase<Secret, true> {
  static constexpr std::string_view kGroupVersionPath = "/api/v1";
  static constexpr std::string_view kPlural = "secrets";
};

template <>
struct ResourceTraits<Lease> : ResourceTraitsBase<Lease, true> {
  static constexpr std::string_view kGroupVersionPath = "/apis/coordination.k8s.io/v1";
  static constexpr std::string_view kPlural = "leases";
};

template <>
struct ResourceTraits<Event> : ResourceTraitsBase<Event, true> {
  static constexpr std::string_view kGroupVersionPath = "/api/v1";
  static constexpr std::string_view kPlural = "events";
};

// Appends `segment` percent-escaped: only RFC 3986 unreserved characters pass,
// so a name can never add a path segment or a query.
inline void AppendEscapedPathSegment(std::string& out, std::string_view segment) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (unsigned char c : segment) {
    bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '.' || c == '_' || c == '~';
    if (unreserved) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
}

template <class T>
std::string ResourcePath(std::string_view ns, std::string_view name = {}) {
  using Traits = ResourceTraits<T>;
  std::string path(Traits::kGroupVersionPath);
  if (Traits::kNamespaced && !ns.empty()) {
    path += "/namespaces/";
    AppendEscapedPathSegment(path, ns);
  }
  path += '/';
  path += Traits::kPlural;
  if (!name.empty()) {
    path += '/';
    AppendEscapedPathSegment(path, name);
  }
  return path;
}

}  // namespace kube
