// SnapshotFixture: DriverFixture with two declared volumes and the snapshot
// RPCs as a snapshotter would send them.
#pragma once

#include <string>
#include <vector>

#include "tests/unit/fault_csi_driver/driver_fixture.h"

namespace faultdriver {

// vol-1 has a known capacity, vol-2 does not (its snapshots get
// --snapshot-size-bytes).
inline constexpr char kVolume[] = "vol-1";
inline constexpr char kSizelessVolume[] = "vol-2";
inline constexpr int64_t kVolumeBytes = int64_t{5} << 30;

class SnapshotFixture : public DriverFixture {
 protected:
  void StartSnapshotDriver(std::vector<std::string> flags = {}) {
    flags.insert(flags.begin(), "--volumes=" + std::string(kVolume) + ":" +
                                    std::to_string(kVolumeBytes) + "," + kSizelessVolume + ":0");
    StartDriver(flags);
  }

  static csi::v1::CreateSnapshotRequest CreateRequest(const std::string& name,
                                                      const std::string& source = kVolume) {
    csi::v1::CreateSnapshotRequest request;
    request.set_name(name);
    request.set_source_volume_id(source);
    return request;
  }

  grpc::Status CreateSnapshot(const csi::v1::CreateSnapshotRequest& request,
                              csi::v1::CreateSnapshotResponse* response = nullptr,
                              std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    csi::v1::CreateSnapshotResponse ignored;
    return controller_->CreateSnapshot(Context(timeout).get(), request,
                                       response ? response : &ignored);
  }
  grpc::Status CreateSnapshot(const std::string& name, const std::string& source = kVolume) {
    return CreateSnapshot(CreateRequest(name, source));
  }
  // The snapshot's ID, or "" (with a test failure) when the call fails.
  std::string CreateSnapshotId(const std::string& name, const std::string& source = kVolume) {
    csi::v1::CreateSnapshotResponse response;
    grpc::Status status = CreateSnapshot(CreateRequest(name, source), &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response.snapshot().snapshot_id();
  }
  // ready_to_use of a successful CreateSnapshot answer.
  bool CreateAnswersReady(const std::string& name) {
    csi::v1::CreateSnapshotResponse response;
    grpc::Status status = CreateSnapshot(CreateRequest(name), &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response.snapshot().ready_to_use();
  }

  grpc::Status DeleteSnapshot(const std::string& snapshot_id) {
    csi::v1::DeleteSnapshotRequest request;
    request.set_snapshot_id(snapshot_id);
    csi::v1::DeleteSnapshotResponse response;
    return controller_->DeleteSnapshot(Context().get(), request, &response);
  }

  grpc::Status ListSnapshots(const csi::v1::ListSnapshotsRequest& request,
                             csi::v1::ListSnapshotsResponse* response) {
    return controller_->ListSnapshots(Context().get(), request, response);
  }
  // The snapshots ListSnapshots reports for one ID (fails the test on error).
  std::vector<csi::v1::Snapshot> ListById(const std::string& snapshot_id) {
    csi::v1::ListSnapshotsRequest request;
    request.set_snapshot_id(snapshot_id);
    csi::v1::ListSnapshotsResponse response;
    grpc::Status status = ListSnapshots(request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    std::vector<csi::v1::Snapshot> snapshots;
    for (const auto& entry : response.entries()) snapshots.push_back(entry.snapshot());
    return snapshots;
  }
  // ready_to_use of the one snapshot ListSnapshots reports for `snapshot_id`.
  bool ListAnswersReady(const std::string& snapshot_id) {
    std::vector<csi::v1::Snapshot> snapshots = ListById(snapshot_id);
    EXPECT_EQ(snapshots.size(), 1u);
    return !snapshots.empty() && snapshots[0].ready_to_use();
  }
};

}  // namespace faultdriver
