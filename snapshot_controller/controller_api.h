// ControllerApi: the only API writes and direct reads the snapshot-controller's
// handler makes (docs/snapshots.md §4.3-§4.5), behind an interface so handler
// tests assert the exact verb, subresource, patch type and body against a
// recording fake, while production goes through kube::Client
// (ControllerApiClient: claims and volumes on the core client, the snapshot
// and group kinds on the snapshot client, snapshotter/snapshot_clients.h). Everything else the
// handler reads comes from the informers' stores (caches.h). Errors are kube::Client's
// (api_error.h).
//
// PersistentVolumeClaims are only ever replaced (Update): the controller's
// RBAC grants `update` on them, not `patch` (§5). Only their finalizers
// change; as kube::PersistentVolumeClaim keeps only part of a claim, the
// rest is sent as the API server has it, never from the decoded copy: as a
// GET answered it, or as the answer to our own last PUT of the claim
// (WrittenClaims, written_claims.h).
// Claims are listed only for a group snapshot's selector, from the API as
// upstream does (§4.7).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/client/client.h"
#include "snapshot/snapshot_clients.h"
#include "snapshot_controller/written_claims.h"

namespace snapshot_controller {

class ControllerApi {
 public:
  virtual ~ControllerApi() = default;

  // VolumeSnapshots. `status` selects the status subresource.
  virtual base::Result<kube::VolumeSnapshot> GetSnapshot(const std::string& ns,
                                                         const std::string& name) = 0;
  virtual base::Result<kube::VolumeSnapshot> PatchSnapshot(const std::string& ns,
                                                           const std::string& name,
                                                           kube::PatchType type,
                                                           const std::string& patch,
                                                           bool status) = 0;
  // The members of a group snapshot are made and deleted by the controller (§4.7).
  virtual base::Result<kube::VolumeSnapshot> CreateSnapshot(
      const kube::VolumeSnapshot& snapshot) = 0;
  virtual base::Status DeleteSnapshot(const std::string& ns, const std::string& name) = 0;

  // VolumeSnapshotContents (cluster-scoped).
  virtual base::Result<kube::VolumeSnapshotContent> GetContent(const std::string& name) = 0;
  virtual base::Result<kube::VolumeSnapshotContent> CreateContent(
      const kube::VolumeSnapshotContent& content) = 0;
  virtual base::Result<kube::VolumeSnapshotContent> PatchContent(const std::string& name,
                                                                 kube::PatchType type,
                                                                 const std::string& patch,
                                                                 bool status) = 0;
  virtual base::Status DeleteContent(const std::string& name) = 0;

  // PersistentVolumeClaims, read fresh before a write of ours.
  virtual base::Result<kube::PersistentVolumeClaim> GetClaim(const std::string& ns,
                                                             const std::string& name) = 0;
  // Replaces the claim's finalizers with `claim`'s, guarded by its
  // resourceVersion (409 Conflict when the claim has changed since), unless
  // the claim already has exactly those.
  virtual base::Result<kube::PersistentVolumeClaim> UpdateClaimFinalizers(
      const kube::PersistentVolumeClaim& claim) = 0;
  // The claim as our last write (or the read before it) left it, when that
  // carries pvc-as-source-protection: what a cache that does not show the
  // finalizer has not caught up with yet, or nullopt.
  virtual std::optional<kube::PersistentVolumeClaim> WrittenClaimWithFinalizer(
      const std::string& ns, const std::string& name) = 0;

  // The claims of `ns` whose labels match `label_selector` ("k=v,k2=v2"; ""
  // matches all).
  virtual base::Result<std::vector<kube::PersistentVolumeClaim>> ListClaims(
      const std::string& ns, const std::string& label_selector) = 0;

  // A PersistentVolume the cache does not hold (yet).
  virtual base::Result<kube::PersistentVolume> GetVolume(const std::string& name) = 0;

  // VolumeGroupSnapshots. `status` selects the status subresource.
  virtual base::Result<kube::VolumeGroupSnapshot> GetGroupSnapshot(const std::string& ns,
                                                                   const std::string& name) = 0;
  virtual base::Result<kube::VolumeGroupSnapshot> PatchGroupSnapshot(const std::string& ns,
                                                                     const std::string& name,
                                                                     kube::PatchType type,
                                                                     const std::string& patch,
                                                                     bool status) = 0;

  // VolumeGroupSnapshotContents (cluster-scoped).
  virtual base::Result<kube::VolumeGroupSnapshotContent> GetGroupContent(
      const std::string& name) = 0;
  virtual base::Result<kube::VolumeGroupSnapshotContent> CreateGroupContent(
      const kube::VolumeGroupSnapshotContent& content) = 0;
  virtual base::Result<kube::VolumeGroupSnapshotContent> PatchGroupContent(
      const std::string& name, kube::PatchType type, const std::string& patch) = 0;
  virtual base::Status DeleteGroupContent(const std::string& name) = 0;
};

class ControllerApiClient final : public ControllerApi {
 public:
  explicit ControllerApiClient(const snapshot::SnapshotClients& clients)
      : snapshots_(*clients.snapshots), core_(*clients.core) {}

  base::Result<kube::VolumeSnapshot> GetSnapshot(const std::string& ns,
                                                 const std::string& name) override {
    return snapshots_.Get<kube::VolumeSnapshot>(ns, name);
  }
  base::Result<kube::VolumeSnapshot> PatchSnapshot(const std::string& ns, const std::string& name,
                                                   kube::PatchType type, const std::string& patch,
                                                   bool status) override {
    if (status) return snapshots_.PatchStatus<kube::VolumeSnapshot>(ns, name, type, patch);
    return snapshots_.Patch<kube::VolumeSnapshot>(ns, name, type, patch);
  }
  base::Result<kube::VolumeSnapshot> CreateSnapshot(const kube::VolumeSnapshot& snapshot) override {
    return snapshots_.Create(snapshot);
  }
  base::Status DeleteSnapshot(const std::string& ns, const std::string& name) override {
    return snapshots_.Delete<kube::VolumeSnapshot>(ns, name);
  }
  base::Result<kube::VolumeSnapshotContent> GetContent(const std::string& name) override {
    return snapshots_.Get<kube::VolumeSnapshotContent>("", name);
  }
  base::Result<kube::VolumeSnapshotContent> CreateContent(
      const kube::VolumeSnapshotContent& content) override {
    return snapshots_.Create(content);
  }
  base::Result<kube::VolumeSnapshotContent> PatchContent(const std::string& name,
                                                         kube::PatchType type,
                                                         const std::string& patch,
                                                         bool status) override {
    if (status) return snapshots_.PatchStatus<kube::VolumeSnapshotContent>("", name, type, patch);
    return snapshots_.Patch<kube::VolumeSnapshotContent>("", name, type, patch);
  }
  base::Status DeleteContent(const std::string& name) override {
    return snapshots_.Delete<kube::VolumeSnapshotContent>("", name);
  }
  // Keeps the JSON read for the UpdateClaimFinalizers that follows.
  base::Result<kube::PersistentVolumeClaim> GetClaim(const std::string& ns,
                                                     const std::string& name) override;
  // A PUT of the claim's JSON with `claim`'s finalizers and resourceVersion,
  // so no field the decoder drops is lost (a claim's spec is immutable, and
  // its ownerReferences matter). The JSON is the answer to our last PUT or
  // GetClaim of the claim when `claim` is at its resourceVersion, else a
  // GET's. No PUT when that JSON already has `claim`'s finalizers: then the
  // claim as read is the answer.
  base::Result<kube::PersistentVolumeClaim> UpdateClaimFinalizers(
      const kube::PersistentVolumeClaim& claim) override;
  std::optional<kube::PersistentVolumeClaim> WrittenClaimWithFinalizer(
      const std::string& ns, const std::string& name) override;
  base::Result<std::vector<kube::PersistentVolumeClaim>> ListClaims(
      const std::string& ns, const std::string& label_selector) override;
  base::Result<kube::PersistentVolume> GetVolume(const std::string& name) override {
    return core_.Get<kube::PersistentVolume>("", name);
  }
  base::Result<kube::VolumeGroupSnapshot> GetGroupSnapshot(const std::string& ns,
                                                           const std::string& name) override {
    return snapshots_.Get<kube::VolumeGroupSnapshot>(ns, name);
  }
  base::Result<kube::VolumeGroupSnapshot> PatchGroupSnapshot(const std::string& ns,
                                                             const std::string& name,
                                                             kube::PatchType type,
                                                             const std::string& patch,
                                                             bool status) override {
    if (status) return snapshots_.PatchStatus<kube::VolumeGroupSnapshot>(ns, name, type, patch);
    return snapshots_.Patch<kube::VolumeGroupSnapshot>(ns, name, type, patch);
  }
  base::Result<kube::VolumeGroupSnapshotContent> GetGroupContent(const std::string& name) override {
    return snapshots_.Get<kube::VolumeGroupSnapshotContent>("", name);
  }
  base::Result<kube::VolumeGroupSnapshotContent> CreateGroupContent(
      const kube::VolumeGroupSnapshotContent& content) override {
    return snapshots_.Create(content);
  }
  base::Result<kube::VolumeGroupSnapshotContent> PatchGroupContent(
      const std::string& name, kube::PatchType type, const std::string& patch) override {
    return snapshots_.Patch<kube::VolumeGroupSnapshotContent>("", name, type, patch);
  }
  base::Status DeleteGroupContent(const std::string& name) override {
    return snapshots_.Delete<kube::VolumeGroupSnapshotContent>("", name);
  }

 private:
  kube::Client& snapshots_;
  kube::Client& core_;
  WrittenClaims written_claims_;
};

}  // namespace snapshot_controller
