// SnapshotWriter: the writes of one sync to one VolumeSnapshot, each computed
// from the snapshot as this sync last saw it - the cached copy (or the answer
// to an earlier sync's write the cache has not caught up with,
// WrittenSnapshots), then each write's answer - so no write needs a GET first
// (docs/snapshots.md §9.4):
//   - finalizers change through a JSON Patch whose `test` ops guard the list
//     (kube/api/metadata_patch.h); one refused (422) because the cached list
//     was stale is computed again from a fresh GET at once
//     (kube/client/patch_from_cache.h). The class changes through a JSON
//     Patch `replace`;
//   - status changes through one merge patch on the status subresource that
//     carries metadata.resourceVersion as a precondition; on 409 Conflict the
//     snapshot is read again, the status computed again from it and the
//     patch retried, at most twice (kube/client/status_patch_from_cache.h).
// A failed finalizer or status write (the finalizers' fresh read included)
// reads "snapshot controller failed to update <namespace>/<name> on API
// server: <error>", a failed read after a status conflict "error get
// snapshot <namespace>/<name> from api server: <error>", as upstream's. Not
// thread-safe: one sync owns it.
#pragma once

#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "snapshot_controller/controller_api.h"
#include "snapshot_controller/written_snapshots.h"

namespace snapshot_controller {

class SnapshotWriter {
 public:
  // Starts from `written`'s newer copy of `cached` if it has one, and tells
  // `written` the answer to each write.
  SnapshotWriter(ControllerApi& api, WrittenSnapshots& written, const kube::VolumeSnapshot& cached)
      : api_(api), written_(written), snapshot_(written.Newest(cached)) {}

  // The snapshot as the last write (or read) returned it.
  const kube::VolumeSnapshot& object() const { return snapshot_; }

  // Adds those of `finalizers` the snapshot lacks, in that order, in one patch.
  base::Status AddFinalizers(std::initializer_list<std::string_view> finalizers);
  // Sets spec.volumeSnapshotClassName; the error is the API's as it is.
  base::Status SetClass(const std::string& class_name);

  // The status `change` computes from the snapshot it is given; nullopt, or
  // the current status itself, means no change. `change` runs again on the
  // fresh copy after a conflict.
  using StatusChange =
      std::function<std::optional<kube::VolumeSnapshotStatus>(const kube::VolumeSnapshot&)>;
  base::Status WriteStatus(const StatusChange& change);

 private:
  base::Status Patch(const std::string& patch);
  // Keeps a successful answer as Keep does; returns it.
  base::Result<kube::VolumeSnapshot> Took(base::Result<kube::VolumeSnapshot> answer);
  // Keeps `answer` (to a write, or a read, after the copy this sync last
  // saw) as that copy, and tells written_.
  void Keep(const kube::VolumeSnapshot& answer);
  std::string Key() const;

  ControllerApi& api_;
  WrittenSnapshots& written_;
  kube::VolumeSnapshot snapshot_;
};

}  // namespace snapshot_controller
