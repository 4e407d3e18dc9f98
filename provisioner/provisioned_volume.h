// The PersistentVolume the provisioner creates for a claim once the driver
// made its volume (docs/provisioner.md §3.2 step 4, §3.9), field for field
// as upstream writes it: name, finalizer, provisioned-by and the
// deletion-secret annotations (the modify-secret ones when configured),
// access modes, capacity, mount options, reclaim policy, class, volume mode,
// VolumeAttributesClass, the CSI source with the provisioner's identity in
// its attributes, the node affinity of a topology-aware driver's volume, and a
// claimRef to the claim.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "csi/proto/csi.pb.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/storage/v1/storage_class.h"
#include "provisioner/volume_request.h"

namespace provisioner {

struct ProvisionedVolumeInputs {
  const kube::PersistentVolumeClaim& claim;
  const kube::StorageClass& storage_class;
  const VolumeRequest& request;
  const csi::v1::Volume& volume;  // as the driver returned it
  int64_t capacity_bytes;         // the volume's, or the request's when it reported 0
  const std::string& driver_name;
  const std::string& identity;  // storage.kubernetes.io/csiProvisionerIdentity
  bool controller_publish_readonly = false;
  // The driver is topology-aware (§3.6): the volume's accessible topology
  // becomes the PV's node affinity.
  bool topology = false;
};

kube::PersistentVolume MakeProvisionedVolume(const ProvisionedVolumeInputs& in);

// The class a claim asks for: the beta annotation, else spec.storageClassName
// (upstream's GetPersistentVolumeClaimClass); "" for none.
std::string ClassOfClaim(const kube::PersistentVolumeClaim& claim);

// The node the scheduler picked for the claim (annotation
// volume.kubernetes.io/selected-node); empty for none.
std::string_view SelectedNodeOf(const kube::PersistentVolumeClaim& claim);

}  // namespace provisioner
