// ReferenceGrant (gateway.networking.k8s.io/v1beta1, namespaced, no status):
// lets objects of the kinds and namespaces in `from` refer to objects of the
// kinds (and names) in `to` in the grant's own namespace. The provisioner
// reads it for cross-namespace data sources (docs/provisioner.md §3.7). A
// custom resource of the Gateway API; the CRD comes with it, not with
// Kubernetes.
#pragma once

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "kube/api/codec_extern.h"
#include "kube/api/field.h"
#include "kube/api/kind.h"
#include "kube/api/object_meta.h"

namespace kube {

struct ReferenceGrantFrom {
  std::string group;  // "" for the core group
  std::string kind;
  std::string namespace_;

  bool operator==(const ReferenceGrantFrom&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("group", &ReferenceGrantFrom::group, Emit::kAlways),
        Field("kind", &ReferenceGrantFrom::kind, Emit::kAlways),
        Field("namespace", &ReferenceGrantFrom::namespace_, Emit::kAlways),
    };
  }
};

struct ReferenceGrantTo {
  std::string group;
  std::string kind;
  std::optional<std::string> name;  // unset or "": every object of the kind

  bool operator==(const ReferenceGrantTo&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("group", &ReferenceGrantTo::group, Emit::kAlways),
        Field("kind", &ReferenceGrantTo::kind, Emit::kAlways),
        Field("name", &ReferenceGrantTo::name),
    };
  }
};

struct ReferenceGrantSpec {
  std::vector<ReferenceGrantFrom> from;
  std::vector<ReferenceGrantTo> to;

  bool operator==(const ReferenceGrantSpec&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("from", &ReferenceGrantSpec::from, Emit::kAlways),
        Field("to", &ReferenceGrantSpec::to, Emit::kAlways),
    };
  }
};

struct ReferenceGrant {
  static constexpr KindFacts kFacts{.api_version = "gateway.networking.k8s.io/v1beta1",
                                    .kind = "ReferenceGrant",
                                    .plural = "referencegrants",
                                    .scope = Scope::kNamespaced};

  ObjectMeta metadata;
  ReferenceGrantSpec spec;

  bool operator==(const ReferenceGrant&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("metadata", &ReferenceGrant::metadata),
        Field("spec", &ReferenceGrant::spec),
    };
  }
};

KUBE_EXTERN_CODEC(ReferenceGrant);
KUBE_EXTERN_CODEC(ObjectList<ReferenceGrant>);

}  // namespace kube
