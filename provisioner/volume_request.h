// VolumeRequest: prepareProvision (docs/provisioner.md §3.3) - what a claim
// and its class ask of the driver, checked before anything is asked: the
// CreateVolume request (without its secrets), the Secret whose data become
// its secrets, and what the PV will record. Each failure carries upstream's
// text and the ProvisioningState upstream gives it. A pure function of its
// inputs: no API or CSI call.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <variant>

#include "base/result.h"
#include "csi/capabilities.h"
#include "csi/proto/csi.pb.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/core/v1/volume_sources.h"
#include "kube/api/storage/v1/storage_class.h"
#include "provisioner/class_secrets.h"
#include "provisioner/provisioning_state.h"
#include "provisioner/volume_source.h"

namespace provisioner {

// The flags that shape a request (§2.1).
struct VolumeRequestOptions {
  std::string volume_name_prefix = "pvc";
  int volume_name_uuid_length = -1;
  std::string default_fstype;
  bool extra_create_metadata = false;
  bool volume_attributes_class = true;  // gate VolumeAttributesClass
  // Gate CrossNamespaceVolumeDataSource: a dataSourceRef may name another
  // namespace, when a ReferenceGrant there allows it (§3.7).
  bool cross_namespace_data_sources = false;
  bool prevent_volume_mode_conversion = true;
};

struct VolumeRequest {
  csi::v1::CreateVolumeRequest request;  // secrets not yet filled in
  std::string fs_type;
  std::optional<kube::SecretReference> provisioner_secret;
  // The PV's secret references, by SecretKind (the provisioner's own one is
  // recorded in the PV's deletion-secret annotations instead).
  std::array<std::optional<kube::SecretReference>, kAllSecretKinds.size()> secrets;
  // VolumeAttributesClass the claim names (gate on); its parameters are
  // read from the API before CreateVolume.
  std::optional<std::string> attributes_class;
  // The snapshot to restore or claim to clone; the request's
  // volume_content_source is filled in from it once it is checked (§3.7).
  std::optional<DataSource> data_source;

  const std::optional<kube::SecretReference>& secret(SecretKind kind) const {
    return secrets[static_cast<size_t>(kind)];
  }
};

// A claim whose data source a volume populator fills (§3.3 step 3): the
// provisioner leaves it alone after one Normal Provisioning Event.
struct LeftToPopulator {};

using VolumeRequestResult = std::variant<VolumeRequest, ProvisionFailure, LeftToPopulator>;

// The request in upstream's order, in three steps because upstream reads the
// data source, the topology and the provisioner Secret between them, and
// which error a claim with two faults reports depends on it (§3.3):
//   BeginVolumeRequest: the data source's kind, the capabilities it needs,
//     the name, fsType, size and volume capabilities;
//   AddProvisionerSecret: the provisioner Secret's reference (its template
//     error is NoChange);
//   CompleteVolumeRequest: the PV's other secret references, then the class
//     parameters without the reserved keys (an unknown one is Finished) and
//     the extra metadata.
// `reference_grants`: the ReferenceGrant cache, needed (non-null) when
// options.cross_namespace_data_sources is set.
VolumeRequestResult BeginVolumeRequest(
    const kube::PersistentVolumeClaim& claim, const kube::StorageClass& storage_class,
    const csi::Capabilities& capabilities, const VolumeRequestOptions& options,
    const kube::Store<kube::ReferenceGrant>* reference_grants = nullptr);
std::optional<ProvisionFailure> AddProvisionerSecret(VolumeRequest& request,
                                                     const kube::PersistentVolumeClaim& claim,
                                                     const kube::StorageClass& storage_class);
std::optional<ProvisionFailure> CompleteVolumeRequest(VolumeRequest& request,
                                                      const kube::PersistentVolumeClaim& claim,
                                                      const kube::StorageClass& storage_class,
                                                      const VolumeRequestOptions& options);

// The three steps at once, with no API read between them.
VolumeRequestResult MakeVolumeRequest(
    const kube::PersistentVolumeClaim& claim, const kube::StorageClass& storage_class,
    const csi::Capabilities& capabilities, const VolumeRequestOptions& options,
    const kube::Store<kube::ReferenceGrant>* reference_grants = nullptr);

}  // namespace provisioner
