// GroupSnapshotWriter: the writes of one sync to one VolumeGroupSnapshot
// (docs/snapshots.md §4.7), each computed from the group snapshot as this
// sync last saw it - the cached copy, then each write's answer - so none
// needs a GET first (§9.4):
//   - the bound-protection finalizer is added and removed by JSON Patches
//     whose `test` ops guard the list (kube/api/metadata_patch.h), computed
//     again from a fresh GET when the copy was stale
//     (kube/client/patch_from_cache.h); the class by a JSON Patch `replace`;
//   - status changes by one merge patch on the status subresource guarded
//     by the resourceVersion (kube/client/status_patch_from_cache.h).
// Failed writes read "snapshot controller failed to update <namespace>/<name>
// on API server: <error>", a failed read "error get group snapshot
// <namespace>/<name> from api server: <error>", as upstream's. Not
// thread-safe: one sync owns it.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "base/result.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "snapshot_controller/controller_api.h"

namespace snapshot_controller {

class GroupSnapshotWriter {
 public:
  GroupSnapshotWriter(ControllerApi& api, kube::VolumeGroupSnapshot group)
      : api_(api), group_(std::move(group)) {}

  // The group snapshot as the last write (or read) returned it.
  const kube::VolumeGroupSnapshot& object() const { return group_; }

  // Adds or removes the volumegroupsnapshot-bound-protection finalizer;
  // nothing when it already is as asked.
  base::Status AddBoundFinalizer();
  base::Status RemoveBoundFinalizer();
  // Sets spec.volumeGroupSnapshotClassName; the error is the API's as it is.
  base::Status SetClass(const std::string& class_name);

  // The status `change` computes from the group snapshot it is given;
  // nullopt, or the current status itself, means no change. `change` runs
  // again on the fresh copy after a conflict.
  using StatusChange = std::function<std::optional<kube::VolumeGroupSnapshotStatus>(
      const kube::VolumeGroupSnapshot&)>;
  base::Status WriteStatus(const StatusChange& change);

 private:
  base::Status SetFinalizer(bool present);
  std::string Key() const;

  ControllerApi& api_;
  kube::VolumeGroupSnapshot group_;
};

}  // namespace snapshot_controller
