#include "snapshotter/group_snapshot_driver.h"

#include "base/log.h"

namespace snapshotter {
namespace {

namespace v1 = csi::v1;

kube::VolumeSnapshotInfo MemberOf(const v1::Snapshot& snapshot) {
  kube::VolumeSnapshotInfo member{.volume_handle = snapshot.source_volume_id(),
                                  .snapshot_handle = snapshot.snapshot_id(),
                                  .ready_to_use = snapshot.ready_to_use()};
  if (snapshot.has_creation_time()) member.creation_time = UnixNanos(snapshot.creation_time());
  if (snapshot.size_bytes() != 0) member.restore_size = snapshot.size_bytes();
  return member;
}

// Upstream dereferences a missing group_snapshot message and panics; here
// it is an error that is not final, so a create is retried.
base::Result<DriverGroupSnapshot> FromCsi(bool has_group_snapshot,
                                          const v1::VolumeGroupSnapshot& group,
                                          std::string_view method) {
  if (!has_group_snapshot) return base::Error(std::string(method) + " returned no group snapshot");
  DriverGroupSnapshot snapshot{
      .group_snapshot_id = group.group_snapshot_id(),
      .creation_time = group.has_creation_time() ? UnixNanos(group.creation_time()) : 0,
      .ready_to_use = group.ready_to_use()};
  for (const v1::Snapshot& member : group.snapshots()) snapshot.members.push_back(MemberOf(member));
  return snapshot;
}

template <class Request>
void SetSnapshots(Request& request, const std::string& group_snapshot_id,
                  const std::vector<std::string>& snapshot_ids, const Secrets& secrets) {
  request.set_group_snapshot_id(group_snapshot_id);
  for (const std::string& id : snapshot_ids) request.add_snapshot_ids(id);
  request.mutable_secrets()->insert(secrets.begin(), secrets.end());
}

}  // namespace

base::Result<DriverGroupSnapshot> CsiGroupSnapshotDriver::CreateGroupSnapshot(
    const CreateGroupSnapshotRequest& request) {
  OperationDeadline deadline(timeout_);
  auto driver_name = identity_.GetDriverName(deadline.Remaining());
  if (!driver_name.ok()) return driver_name.error();

  v1::CreateVolumeGroupSnapshotRequest csi_request;
  for (const std::string& id : request.source_volume_ids) csi_request.add_source_volume_ids(id);
  SetCreateFields(request, csi_request);
  auto response =
      group_controller_.CreateVolumeGroupSnapshot(csi_request, {.timeout = deadline.Remaining()});
  if (!response.ok()) return response.error();
  auto group = FromCsi(response->has_group_snapshot(), response->group_snapshot(),
                       "CreateVolumeGroupSnapshot");
  if (group.ok()) {
    LOG_V(5, "CSI CreateVolumeGroupSnapshot answered")
        .With("name", request.name)
        .With("driver", *driver_name)
        .With("groupSnapshotID", group->group_snapshot_id)
        .With("snapshots", group->members.size())
        .With("readyToUse", group->ready_to_use);
  }
  return group;
}

base::Result<DriverGroupSnapshot> CsiGroupSnapshotDriver::GetGroupSnapshot(
    const std::string& group_snapshot_id, const std::vector<std::string>& snapshot_ids,
    const Secrets& secrets) {
  v1::GetVolumeGroupSnapshotRequest request;
  SetSnapshots(request, group_snapshot_id, snapshot_ids, secrets);
  auto response = group_controller_.GetVolumeGroupSnapshot(request, {.timeout = timeout_});
  if (!response.ok()) return response.error();
  return FromCsi(response->has_group_snapshot(), response->group_snapshot(),
                 "GetVolumeGroupSnapshot");
}

base::Status CsiGroupSnapshotDriver::DeleteGroupSnapshot(
    const std::string& group_snapshot_id, const std::vector<std::string>& snapshot_ids,
    const Secrets& secrets) {
  v1::DeleteVolumeGroupSnapshotRequest request;
  SetSnapshots(request, group_snapshot_id, snapshot_ids, secrets);
  return group_controller_.DeleteVolumeGroupSnapshot(request, {.timeout = timeout_});
}

}  // namespace snapshotter
