// docs/snapshots.md §3.4 create steps 6-7, step 1 and §3.6: CsiSnapshotDriver
// on a real gRPC connection to an in-process driver - GetPluginInfo before
// CreateSnapshot and ControllerGetCapabilities before ListSnapshots, each
// pair under one --timeout; ListSnapshots only when advertised; the answer
// read as upstream reads it; which create errors are final.
#include "snapshotter/snapshot_driver.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "csi/final_error.h"
#include "tests/unit/snapshotter/csi_driver_fixture.h"

namespace snapshotter {
namespace {

namespace v1 = csi::v1;
using namespace std::chrono_literals;
using ::testing::ElementsAre;
using ::testing::Pair;

class CsiSnapshotDriverTest : public testing::CsiDriverTest<CsiSnapshotDriver> {
 protected:
  void AdvertiseListSnapshots(bool advertised) {
    fake_.controller_get_capabilities = [advertised](auto*, auto&,
                                                     v1::ControllerGetCapabilitiesResponse* r) {
      r->add_capabilities()->mutable_rpc()->set_type(
          v1::ControllerServiceCapability::RPC::CREATE_DELETE_SNAPSHOT);
      if (advertised) {
        r->add_capabilities()->mutable_rpc()->set_type(
            v1::ControllerServiceCapability::RPC::LIST_SNAPSHOTS);
      }
      return grpc::Status::OK;
    };
  }
};

TEST_F(CsiSnapshotDriverTest, CreateSnapshotSendsTheRequestAndReadsTheAnswer) {
  NameDriver();
  v1::CreateSnapshotRequest seen;
  fake_.create_snapshot = [&](auto*, const v1::CreateSnapshotRequest& request,
                              v1::CreateSnapshotResponse* response) {
    seen = request;
    v1::Snapshot* snapshot = response->mutable_snapshot();
    snapshot->set_snapshot_id("snap-1");
    snapshot->set_size_bytes(2048);
    snapshot->set_ready_to_use(true);
    snapshot->mutable_creation_time()->set_seconds(1700000000);
    snapshot->mutable_creation_time()->set_nanos(5);
    return grpc::Status::OK;
  };
  Connect();
  auto snapshot = driver_->CreateSnapshot({.name = "snapshot-uid",
                                           .source_volume_id = "vol-1",
                                           .parameters = {{"tier", "gold"}},
                                           .secrets = {{"password", "hunter2"}}});
  ASSERT_TRUE(snapshot.ok()) << snapshot.error().message;
  EXPECT_EQ(seen.name(), "snapshot-uid");
  EXPECT_EQ(seen.source_volume_id(), "vol-1");
  EXPECT_THAT(seen.parameters(), ElementsAre(Pair("tier", "gold")));
  EXPECT_THAT(seen.secrets(), ElementsAre(Pair("password", "hunter2")));
  EXPECT_EQ(snapshot->snapshot_id, "snap-1");
  EXPECT_EQ(snapshot->size_bytes, 2048);
  EXPECT_TRUE(snapshot->ready_to_use);
  EXPECT_EQ(snapshot->creation_time, 1700000000'000000005);
}

TEST_F(CsiSnapshotDriverTest, CreationTimeAsUpstreamReadsIt) {
  NameDriver();
  std::optional<google::protobuf::Timestamp> time;
  fake_.create_snapshot = [&](auto*, auto&, v1::CreateSnapshotResponse* response) {
    response->mutable_snapshot()->set_snapshot_id("snap-1");
    if (time) *response->mutable_snapshot()->mutable_creation_time() = *time;
    return grpc::Status::OK;
  };
  Connect();
  // Absent: the Unix epoch.
  auto snapshot = driver_->CreateSnapshot({});
  ASSERT_TRUE(snapshot.ok()) << snapshot.error().message;
  EXPECT_EQ(snapshot->creation_time, 0);
  // Go's zero time (year 1) does not fit in int64 nanoseconds: unknown.
  time.emplace();
  time->set_seconds(-62135596800);
  snapshot = driver_->CreateSnapshot({});
  ASSERT_TRUE(snapshot.ok()) << snapshot.error().message;
  EXPECT_EQ(snapshot->creation_time, std::nullopt);
}

TEST_F(CsiSnapshotDriverTest, AnswerWithoutSnapshotIsAnErrorThatIsNotFinal) {
  NameDriver();
  fake_.create_snapshot = [](auto*, auto&, auto*) { return grpc::Status::OK; };
  Connect();
  auto snapshot = driver_->CreateSnapshot({});
  ASSERT_FALSE(snapshot.ok());
  EXPECT_EQ(snapshot.error().message, "CreateSnapshot returned no snapshot");
  EXPECT_FALSE(csi::IsFinalError(snapshot.error()));
}

TEST_F(CsiSnapshotDriverTest, GetPluginInfoFailureSendsNoCreate) {
  fake_.get_plugin_info = [](auto*, auto&, auto*) {
    return grpc::Status(grpc::StatusCode::UNAVAILABLE, "starting");
  };
  bool created = false;
  fake_.create_snapshot = [&](auto*, auto&, auto*) {
    created = true;
    return grpc::Status::OK;
  };
  Connect();
  auto snapshot = driver_->CreateSnapshot({});
  ASSERT_FALSE(snapshot.ok());
  EXPECT_EQ(snapshot.error().code, grpc::StatusCode::UNAVAILABLE);
  EXPECT_FALSE(created);
}

// The deadline is the operation's: CreateSnapshot gets only what
// GetPluginInfo left of --timeout (2 s). GetPluginInfo takes 1.5 s and
// CreateSnapshot answers after 1 s: within its own 2 s it would succeed,
// within the 0.5 s left it cannot.
TEST_F(CsiSnapshotDriverTest, GetPluginInfoAndCreateSnapshotShareOneTimeout) {
  fake_.get_plugin_info = [](auto*, auto&, v1::GetPluginInfoResponse* response) {
    std::this_thread::sleep_for(1500ms);
    response->set_name("csi.example.com");
    return grpc::Status::OK;
  };
  fake_.create_snapshot = [](auto*, auto&, v1::CreateSnapshotResponse* response) {
    std::this_thread::sleep_for(1s);
    response->mutable_snapshot()->set_snapshot_id("snap-1");
    return grpc::Status::OK;
  };
  Connect(/*timeout=*/2s);
  auto snapshot = driver_->CreateSnapshot({});
  ASSERT_FALSE(snapshot.ok());
  EXPECT_EQ(snapshot.error().code, grpc::StatusCode::DEADLINE_EXCEEDED);
}

TEST_F(CsiSnapshotDriverTest, DeleteSnapshotSendsIdAndSecrets) {
  v1::DeleteSnapshotRequest seen;
  fake_.delete_snapshot = [&](auto*, const v1::DeleteSnapshotRequest& request, auto*) {
    seen = request;
    return grpc::Status::OK;
  };
  Connect();
  ASSERT_TRUE(driver_->DeleteSnapshot("snap-1", {{"password", "hunter2"}}).ok());
  EXPECT_EQ(seen.snapshot_id(), "snap-1");
  EXPECT_THAT(seen.secrets(), ElementsAre(Pair("password", "hunter2")));
}

TEST_F(CsiSnapshotDriverTest, ListSnapshotReadsTheFirstEntryWhenAdvertised) {
  AdvertiseListSnapshots(true);
  v1::ListSnapshotsRequest seen;
  fake_.list_snapshots = [&](auto*, const v1::ListSnapshotsRequest& request,
                             v1::ListSnapshotsResponse* response) {
    seen = request;
    v1::Snapshot* first = response->add_entries()->mutable_snapshot();
    first->set_snapshot_id("snap-1");
    first->set_ready_to_use(true);
    first->set_size_bytes(4096);
    first->set_group_snapshot_id("group-1");
    response->add_entries()->mutable_snapshot()->set_snapshot_id("ignored");
    return grpc::Status::OK;
  };
  Connect();
  auto listed = driver_->ListSnapshot("snap-1", {{"token", "t"}});
  ASSERT_TRUE(listed.ok()) << listed.error().message;
  ASSERT_TRUE(listed->has_value());
  EXPECT_EQ((*listed)->snapshot_id, "snap-1");
  EXPECT_TRUE((*listed)->ready_to_use);
  EXPECT_EQ((*listed)->size_bytes, 4096);
  EXPECT_EQ((*listed)->group_snapshot_id, "group-1");
  EXPECT_EQ(seen.snapshot_id(), "snap-1");
  EXPECT_THAT(seen.secrets(), ElementsAre(Pair("token", "t")));
}

TEST_F(CsiSnapshotDriverTest, ListSnapshotWithoutTheCapabilityMakesNoListCall) {
  AdvertiseListSnapshots(false);
  bool listed_called = false;
  fake_.list_snapshots = [&](auto*, auto&, auto*) {
    listed_called = true;
    return grpc::Status::OK;
  };
  Connect();
  auto listed = driver_->ListSnapshot("snap-1", {});
  ASSERT_TRUE(listed.ok()) << listed.error().message;
  EXPECT_FALSE(listed->has_value());
  EXPECT_FALSE(listed_called);
}

TEST_F(CsiSnapshotDriverTest, ListSnapshotEmptyListIsAnError) {
  AdvertiseListSnapshots(true);
  fake_.list_snapshots = [](auto*, auto&, auto*) { return grpc::Status::OK; };
  Connect();
  auto listed = driver_->ListSnapshot("snap-1", {});
  ASSERT_FALSE(listed.ok());
  EXPECT_EQ(listed.error().message, "can not find snapshot for snapshotID snap-1");
}

TEST_F(CsiSnapshotDriverTest, ListSnapshotCapabilityFailureIsWrapped) {
  fake_.controller_get_capabilities = [](auto*, auto&, auto*) {
    return grpc::Status(grpc::StatusCode::INTERNAL, "boom");
  };
  Connect();
  auto listed = driver_->ListSnapshot("snap-1", {});
  ASSERT_FALSE(listed.ok());
  EXPECT_EQ(listed.error().message,
            "failed to check if ListSnapshots is supported: rpc error: code = Internal desc = "
            "boom");
}

}  // namespace
}  // namespace snapshotter
