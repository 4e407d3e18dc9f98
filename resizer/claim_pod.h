// ClaimPod: the resizer's view of a Pod (core/v1), for the in-use gate
// (docs/resizer.md §4.6): which claims its volumes name and whether it has
// ended. Nothing else of the Pod is decoded, so the cluster-wide Pod cache
// keeps per Pod only its metadata, its claim names and its phase.
#pragma once

#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "kube/api/field.h"
#include "kube/api/kind.h"
#include "kube/api/object_meta.h"
#include "kube/api/proto/wire_reader.h"

namespace resizer {

struct ClaimPodVolume {
  std::string claim_name;  // "" for a volume of another kind

  bool operator==(const ClaimPodVolume&) const = default;

  static constexpr auto Fields() {
    return std::tuple{kube::Field("persistentVolumeClaim.claimName", &ClaimPodVolume::claim_name)};
  }
};

struct ClaimPodSpec {
  std::vector<ClaimPodVolume> volumes;

  bool operator==(const ClaimPodSpec&) const = default;

  static constexpr auto Fields() {
    return std::tuple{kube::Field("volumes", &ClaimPodSpec::volumes)};
  }
};

struct ClaimPodStatus {
  std::string phase;

  bool operator==(const ClaimPodStatus&) const = default;

  static constexpr auto Fields() {
    return std::tuple{kube::Field("phase", &ClaimPodStatus::phase)};
  }
};

struct ClaimPod {
  static constexpr kube::KindFacts kFacts{.api_version = "v1",
                                          .kind = "Pod",
                                          .plural = "pods",
                                          .scope = kube::Scope::kNamespaced,
                                          .status_subresource = true};

  kube::ObjectMeta metadata;
  ClaimPodSpec spec;
  ClaimPodStatus status;

  bool operator==(const ClaimPod&) const = default;

  // Succeeded or Failed: it no longer uses its volumes.
  bool Ended() const { return status.phase == "Succeeded" || status.phase == "Failed"; }
  // Whether one of its volumes is the claim `name` of its namespace.
  bool UsesClaim(std::string_view name) const;

  static constexpr auto Fields() {
    return std::tuple{kube::Field("metadata", &ClaimPod::metadata),
                      kube::Field("spec", &ClaimPod::spec),
                      kube::Field("status", &ClaimPod::status, kube::Emit::kOmitZero)};
  }
};

// Protobuf decoding (docs/design.md §4.1) of the same fields, by their
// numbers in k8s.io/api core/v1 (Pod, PodSpec.volumes,
// Volume.volumeSource.persistentVolumeClaim.claimName, PodStatus.phase):
// the API server then serves the Pod list and watch as protobuf, as
// client-go asks it to.
void ReadProto(kube::proto::WireReader& in, ClaimPodVolume& volume);
void ReadProto(kube::proto::WireReader& in, ClaimPodSpec& spec);
void ReadProto(kube::proto::WireReader& in, ClaimPodStatus& status);
void ReadProto(kube::proto::WireReader& in, ClaimPod& pod);

}  // namespace resizer
