// ProvisionVolume: upstream's Provision (docs/provisioner.md §3.3-§3.9) for
// one claim of a class of this driver - the request (volume_request.h), the
// Provisioner Secret's data, CreateVolume, the checks of its answer, and the
// PV to create. A failure says what it means for the claim's next attempt.
// A claim with a data source (§3.7) has it checked and protected by its
// finalizer before CreateVolume, and the answer must name it. A
// topology-aware driver is told where the volume may go (§3.6) and its answer
// becomes the PV's node affinity; the topology memo of the claim is forgotten
// once CreateVolume's outcome is known. A class of the in-tree plugin the
// driver replaces (§3.13) is translated for the request, and the PV comes
// back in in-tree form (a PV that cannot be translated has its volume
// deleted again). Calls only the
// driver, the Secret read and the data source's reads and finalizer;
// creating the PV, and releasing a snapshot's finalizer, are the caller's.
#pragma once

#include <functional>
#include <string>
#include <variant>

#include "csi/capabilities.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/storage/v1/storage_class.h"
#include "kube/runtime/store.h"
#include "provisioner/accessibility.h"
#include "provisioner/known_provisioners.h"
#include "provisioner/provisioner_api.h"
#include "provisioner/provisioning_state.h"
#include "provisioner/volume_driver.h"
#include "provisioner/volume_request.h"

namespace provisioner {

struct ProvisioningContext {
  const KnownProvisioners& known;
  const std::string& identity;
  const csi::Capabilities& capabilities;
  const VolumeRequestOptions& request_options;
  bool controller_publish_readonly;
  ProvisionerApi& api;
  VolumeDriver& driver;
  // The claim cache, where a clone's source claim is read (§3.7).
  const kube::Store<kube::PersistentVolumeClaim>& claims;
  // Told each data source this attempt put its finalizer on (may be empty).
  std::function<void(const DataSource&)> on_protected = {};
  // A topology-aware driver's (§3.6); null: no accessibility requirements,
  // no node affinity.
  const TopologyView* topology = nullptr;
  // The ReferenceGrant cache, with the CrossNamespaceVolumeDataSource gate.
  const kube::Store<kube::ReferenceGrant>* reference_grants = nullptr;
};

using ProvisionResult = std::variant<kube::PersistentVolume, ProvisionFailure, LeftToPopulator>;

// upstream's prepareProvision (§3.3): the CreateVolume request ready to go,
// and the Provisioner Secret's data it is sent with; with its side effects
// (the data source's finalizer, the topology memo).
struct PreparedVolume {
  VolumeRequest request;
  Secrets secrets;
  bool migrated = false;  // the class was an in-tree plugin's, translated (§3.13)
};
using PrepareResult = std::variant<PreparedVolume, ProvisionFailure, LeftToPopulator>;

PrepareResult PrepareVolume(const ProvisioningContext& context,
                            const kube::PersistentVolumeClaim& claim,
                            const kube::StorageClass& storage_class);

ProvisionResult ProvisionVolume(const ProvisioningContext& context,
                                const kube::PersistentVolumeClaim& claim,
                                const kube::StorageClass& storage_class);

// What a failed CreateVolume means (§3.8): a gRPC ResourceExhausted is
// final (kReschedule only when `may_reschedule`); Canceled,
// DeadlineExceeded, Unavailable and Aborted may leave the volume being made
// (kInBackground), as any failure without a gRPC code does; every other code
// is final.
ProvisioningState StateOfCreateError(const base::Error& error, bool may_reschedule);

}  // namespace provisioner
