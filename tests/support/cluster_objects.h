// Objects for a cluster whose controllers run (ControlPlaneOptions::
// controller_manager) but no kubelet: what a kubelet, a CSI driver's
// registration and an administrator would create, so that the real
// PersistentVolume binder and attach-detach controller act on them as in a
// cluster. Objects are JSON documents, so any field the controllers read can
// be set without a typed kind for it. Every call is one or a few requests as
// `client` (the admin) and fails with the API server's answer.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "base/result.h"
#include "kube/client/client.h"

namespace testsupport {

// The annotation by which a kubelet hands its node's attach and detach to the
// attach-detach controller; the controller ignores Nodes without it.
inline constexpr char kControllerManagedAttachDetach[] =
    "volumes.kubernetes.io/controller-managed-attach-detach";

// The name the attach-detach controller and the kubelet give a CSI volume in
// a Node's status.volumesAttached and status.volumesInUse:
// "kubernetes.io/csi/<driver>^<volume handle>".
std::string CsiVolumeName(const std::string& driver, const std::string& handle);

struct NodeObject {
  std::string name = {};
  // kubernetes.io/hostname=<name> and kubernetes.io/os=linux are added.
  std::map<std::string, std::string> labels = {};
  // status.volumesInUse (CsiVolumeName entries) in every version of the Node,
  // from its creation on: what a kubelet reports as mounted there.
  std::vector<std::string> volumes_in_use = {};
};

// A Node as a kubelet registers it: annotated kControllerManagedAttachDetach
// "true", labelled, with capacity (4 CPUs, 8Gi, 110 pods), a Ready condition
// (so the attach-detach controller never force-detaches from it as from an
// unhealthy node) and volumes_in_use. The not-ready NoSchedule taint that
// admission adds to every new Node is removed, as the node lifecycle
// controller (not run) would for a Ready node, so a scheduler may place Pods
// there.
base::Status CreateNode(kube::Client& client, const NodeObject& node);

// Replaces the Node's status.volumesInUse, as its kubelet does after mounting
// or unmounting.
base::Status SetVolumesInUse(kube::Client& client, const std::string& node,
                             const std::vector<std::string>& volume_names);

// The CSINode of `node` for `driver` with the driver's `node_id` and the
// topology keys it reported (what the driver's node registration makes).
base::Status CreateCsiNode(kube::Client& client, const std::string& node, const std::string& driver,
                           const std::string& node_id,
                           const std::vector<std::string>& topology_keys = {});

// A CSIDriver object: with attach_required the attach-detach controller
// creates VolumeAttachments for the driver's volumes, without it none.
base::Status CreateCsiDriver(kube::Client& client, const std::string& driver, bool attach_required);

struct ClaimObject {
  std::string ns = "default";
  std::string claim = {};   // the PersistentVolumeClaim
  std::string volume = {};  // the PersistentVolume
  std::string driver = {};
  std::string handle = {};  // the CSI volume handle
  std::string access_mode = "ReadWriteOnce";
};

// A pre-provisioned CSI PersistentVolume (1Gi, storageClassName "", Retain)
// and a claim for it (spec.volumeName, no storage class): returns once the
// PersistentVolume binder has bound them to each other (both Bound, the PV's
// claimRef naming the claim by UID). The claim is created only after the
// binder has seen the volume (phase Available), so the binding never waits
// for the binder's periodic resync.
base::Status CreateBoundClaim(kube::Client& client, const ClaimObject& claim,
                              std::chrono::milliseconds timeout = std::chrono::seconds(60));

struct PodObject {
  std::string ns = "default";
  std::string name = {};
  // spec.nodeName: the Pod is bound there at creation. Empty: left to a
  // scheduler.
  std::string node = {};
  std::vector<std::string> claims = {};  // one volume per claim
  // spec.nodeSelector: where a scheduler may place it.
  std::map<std::string, std::string> node_selector = {};
};

// A Pod using the claims. Its container never runs (there is no kubelet);
// the attach-detach controller acts on it all the same.
base::Status CreatePod(kube::Client& client, const PodObject& pod);

// Deletes the Pod with grace period 0, so it is gone at once, as after its
// kubelet confirmed the end of its containers.
base::Status DeletePod(kube::Client& client, const std::string& ns, const std::string& name);

// The Node's status.volumesAttached names.
base::Result<std::vector<std::string>> VolumesAttached(kube::Client& client,
                                                       const std::string& node);

// The name of the VolumeAttachment of PersistentVolume `volume` to `node`;
// NotFound while there is none.
base::Result<std::string> FindVolumeAttachment(kube::Client& client, const std::string& volume,
                                               const std::string& node);

// Polls `check` every 100 ms until it passes; on timeout, its last error with
// how long it was tried.
base::Status Eventually(std::chrono::milliseconds timeout,
                        const std::function<base::Status()>& check);

}  // namespace testsupport
