// GroupSnapshotFixture: SnapshotFixture with the GroupController RPCs as a
// snapshotter would send them.
#pragma once

#include <string>
#include <vector>

#include "tests/unit/fault_csi_driver/snapshot_fixture.h"

namespace faultdriver {

using Ids = std::vector<std::string>;

class GroupSnapshotFixture : public SnapshotFixture {
 protected:
  void StartGroupDriver(std::vector<std::string> flags = {}) {
    StartSnapshotDriver(std::move(flags));
    group_controller_ = csi::v1::GroupController::NewStub(channel_);
  }

  void TearDown() override {
    group_controller_.reset();
    SnapshotFixture::TearDown();
  }

  static csi::v1::CreateVolumeGroupSnapshotRequest CreateGroupRequest(
      const std::string& name, const Ids& sources = {kVolume, kSizelessVolume}) {
    csi::v1::CreateVolumeGroupSnapshotRequest request;
    request.set_name(name);
    for (const std::string& source : sources) request.add_source_volume_ids(source);
    return request;
  }

  grpc::Status CreateGroup(const csi::v1::CreateVolumeGroupSnapshotRequest& request,
                           csi::v1::CreateVolumeGroupSnapshotResponse* response = nullptr,
                           std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    csi::v1::CreateVolumeGroupSnapshotResponse ignored;
    return group_controller_->CreateVolumeGroupSnapshot(Context(timeout).get(), request,
                                                        response ? response : &ignored);
  }
  grpc::Status CreateGroup(const std::string& name,
                           const Ids& sources = {kVolume, kSizelessVolume}) {
    return CreateGroup(CreateGroupRequest(name, sources));
  }
  // The group a successful create answers (a test failure when it fails).
  csi::v1::VolumeGroupSnapshot CreatedGroup(const std::string& name,
                                            const Ids& sources = {kVolume, kSizelessVolume}) {
    csi::v1::CreateVolumeGroupSnapshotResponse response;
    grpc::Status status = CreateGroup(CreateGroupRequest(name, sources), &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response.group_snapshot();
  }

  grpc::Status GetGroup(const std::string& group_snapshot_id, const Ids& snapshot_ids,
                        csi::v1::GetVolumeGroupSnapshotResponse* response = nullptr) {
    csi::v1::GetVolumeGroupSnapshotRequest request;
    request.set_group_snapshot_id(group_snapshot_id);
    for (const std::string& id : snapshot_ids) request.add_snapshot_ids(id);
    csi::v1::GetVolumeGroupSnapshotResponse ignored;
    return group_controller_->GetVolumeGroupSnapshot(Context().get(), request,
                                                     response ? response : &ignored);
  }
  // The group a successful GetVolumeGroupSnapshot answers for `group`'s members.
  csi::v1::VolumeGroupSnapshot GotGroup(const csi::v1::VolumeGroupSnapshot& group) {
    csi::v1::GetVolumeGroupSnapshotResponse response;
    grpc::Status status = GetGroup(group.group_snapshot_id(), MemberIds(group), &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response.group_snapshot();
  }

  grpc::Status DeleteGroup(const std::string& group_snapshot_id, const Ids& snapshot_ids) {
    csi::v1::DeleteVolumeGroupSnapshotRequest request;
    request.set_group_snapshot_id(group_snapshot_id);
    for (const std::string& id : snapshot_ids) request.add_snapshot_ids(id);
    csi::v1::DeleteVolumeGroupSnapshotResponse response;
    return group_controller_->DeleteVolumeGroupSnapshot(Context().get(), request, &response);
  }
  grpc::Status DeleteGroup(const csi::v1::VolumeGroupSnapshot& group) {
    return DeleteGroup(group.group_snapshot_id(), MemberIds(group));
  }

  static Ids MemberIds(const csi::v1::VolumeGroupSnapshot& group) {
    Ids ids;
    for (const auto& snapshot : group.snapshots()) ids.push_back(snapshot.snapshot_id());
    return ids;
  }
  // ready_to_use of the group and then of each member, as one answer reports them.
  static std::vector<bool> Readiness(const csi::v1::VolumeGroupSnapshot& group) {
    std::vector<bool> ready = {group.ready_to_use()};
    for (const auto& snapshot : group.snapshots()) ready.push_back(snapshot.ready_to_use());
    return ready;
  }

  std::unique_ptr<csi::v1::GroupController::Stub> group_controller_;
};

}  // namespace faultdriver
