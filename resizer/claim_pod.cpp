#include "resizer/claim_pod.h"

#include <algorithm>
#include <string>

#include "kube/api/proto/fields.h"
#include "kube/api/proto/meta_v1.h"

namespace resizer {

bool ClaimPod::UsesClaim(std::string_view name) const {
  return std::ranges::any_of(spec.volumes,
                             [&](const ClaimPodVolume& v) { return v.claim_name == name; });
}

using kube::proto::Bind;
using kube::proto::ReadFields;
using kube::proto::WireReader;

void ReadProto(WireReader& in, ClaimPodVolume& volume) {
  // PersistentVolumeClaimVolumeSource {claimName = 1}.
  auto claim_source = [](WireReader& field, std::string& claim_name) {
    WireReader message = field.ReadMessage();
    ReadFields(message, Bind(1, "claimName", claim_name));
  };
  // VolumeSource {persistentVolumeClaim = 10, the other kinds}.
  auto source = [&](WireReader& field, std::string& claim_name) {
    WireReader message = field.ReadMessage();
    ReadFields(message, Bind(10, "persistentVolumeClaim", claim_name, claim_source));
  };
  ReadFields(in, Bind(2, "volumeSource", volume.claim_name, source));
}

void ReadProto(WireReader& in, ClaimPodSpec& spec) {
  ReadFields(in, Bind(1, "volumes", spec.volumes));
}

void ReadProto(WireReader& in, ClaimPodStatus& status) {
  ReadFields(in, Bind(1, "phase", status.phase));
}

void ReadProto(WireReader& in, ClaimPod& pod) {
  ReadFields(in, Bind(1, "metadata", pod.metadata), Bind(2, "spec", pod.spec),
             Bind(3, "status", pod.status));
}

}  // namespace resizer
