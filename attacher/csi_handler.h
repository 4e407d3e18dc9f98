// CsiHandler: attaches and detaches volumes with ControllerPublishVolume /
// ControllerUnpublishVolume (docs/attacher.md §5.3-§5.5). It reads VAs, PVs and
// CSINodes from the caches, writes through KubernetesApi and calls the driver
// through VolumePublisher.
//
// SyncVolumeAttachment attaches a VA without deletionTimestamp, unless it is
// already attached (then it only clears a leftover status.attachError), and
// detaches one with it, unless our finalizer is gone; RequestForceSync
// overrides both skips until a sync of that VA succeeds. A failed
// attach/detach is saved in status.attachError/detachError and returned, so
// the controller retries with backoff, and reported to Options::events, if
// set, as a Warning Event with the same message. Finalizers and the node-id
// annotation are written as strategic merge patches, which the API server
// merges into the object as stored: a stale cached copy never makes one fail
// nor drops another writer's entry.
//
// SyncPersistentVolume removes our finalizer from a PV once no VA of any
// driver names it, when the PV is being deleted or its CSI migration was
// rolled back (event_filters.h IsMigrationRollback); other PVs are ignored.
// In-tree PVs are attached and detached through their CSI translation
// (docs/migration.md §6), with `migrated` set on the driver calls.
//
// Thread-safe if `api` and `publisher` are: many workers sync at once.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <unordered_set>

#include "attacher/attachment_events.h"
#include "attacher/handler.h"
#include "attacher/kubernetes_api.h"
#include "attacher/volume_publisher.h"
#include "base/clock.h"
#include "kube/api/storage/v1/csi_node.h"
#include "kube/runtime/store.h"

namespace attacher {

class CsiHandler final : public Handler {
 public:
  struct Options {
    bool supports_publish_readonly = false;          // controller cap PUBLISH_READONLY
    bool supports_single_node_multi_writer = false;  // controller cap SINGLE_NODE_MULTI_WRITER
    std::string default_fstype = {};                 // --default-fstype
    // Feature gate MutableCSINodeAllocatableCount: a failed Publish's gRPC
    // code goes to status.attachError.errorCode.
    bool error_code_enabled = true;
    // Where failures are reported as Events (docs/attacher.md §7); none if null.
    AttachmentEvents* events = nullptr;
  };

  CsiHandler(std::string driver_name, const kube::Store<kube::VolumeAttachment>& vas,
             const kube::Store<kube::PersistentVolume>& pvs,
             const kube::Store<kube::CSINode>& csi_nodes, KubernetesApi& api,
             VolumePublisher& publisher, Options options, base::Clock& clock);

  base::Status SyncVolumeAttachment(const kube::VolumeAttachment& va) override;
  base::Status SyncPersistentVolume(const kube::PersistentVolume& pv) override;
  void RequestForceSync(const std::string& va_name) override;

 private:
  // Removes and returns the pending force-sync of `va_name`.
  bool TakeForceSync(const std::string& va_name);

  base::Status Attach(const kube::VolumeAttachment& va, bool forced);
  base::Status ClearLeftoverAttachError(const kube::VolumeAttachment& va);
  // Steps 1-6 of §5.3: everything up to the Publish call.
  base::Result<PublishRequest> PrepareAttach(const kube::VolumeAttachment& va);
  base::Status EnsurePvFinalizer(const kube::PersistentVolume& pv);
  base::Status SaveFinalizerAndNodeId(const kube::VolumeAttachment& va, const std::string& node_id);
  // Only a failed Publish carries a gRPC code, and only that one is saved as
  // errorCode: failures before the call are Kubernetes API or plain errors.
  base::Status FailAttach(const kube::VolumeAttachment& va, const base::Error& error);

  base::Status Detach(const kube::VolumeAttachment& va, bool forced);
  base::Result<UnpublishRequest> PrepareDetach(const kube::VolumeAttachment& va);
  base::Status MarkDetached(const kube::VolumeAttachment& va);
  base::Status FailDetach(const kube::VolumeAttachment& va, const base::Error& error);

  // Whether our finalizer is to leave `pv`: it is being deleted or its CSI
  // migration was rolled back.
  bool LetsGoOf(const kube::PersistentVolume& pv) const;

  base::Result<std::map<std::string, std::string>> LoadSecrets(
      const kube::CSIPersistentVolumeSource& csi);
  // Writes a status patch recording a failure; a failure to write is only
  // logged, the caller reports the original error.
  void SaveError(const kube::VolumeAttachment& va, const std::string& patch);

  const std::string driver_name_;
  const std::string finalizer_;
  const kube::Store<kube::VolumeAttachment>& vas_;
  const kube::Store<kube::PersistentVolume>& pvs_;
  const kube::Store<kube::CSINode>& csi_nodes_;
  KubernetesApi& api_;
  VolumePublisher& publisher_;
  const Options options_;
  base::Clock& clock_;

  std::mutex force_sync_mu_;
  std::unordered_set<std::string> force_sync_;  // guarded by force_sync_mu_
};

}  // namespace attacher
