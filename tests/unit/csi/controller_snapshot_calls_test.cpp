// docs/snapshots.md §3.4 create step 6, §3.4 delete, §3.6: the snapshot calls
// of the Controller service send the request as given, return the driver's
// answer, keep a failed call's gRPC code, and never log the secrets.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "csi/controller_client.h"
#include "tests/unit/csi/fake_driver.h"

namespace csi {
namespace {

using ::testing::IsEmpty;
using namespace std::chrono_literals;

class ControllerSnapshotCallsTest : public ::testing::Test {
 protected:
  void Connect() {
    driver_.Start();
    ConnectOptions options;
    options.on_connection_loss = [] { ADD_FAILURE() << "connection lost"; };
    auto connection = csi::Connect(driver_.socket_path(), options);
    ASSERT_TRUE(connection.ok()) << connection.error().message;
    connection_ = std::move(connection).value();
    client_ = std::make_unique<ControllerClient>(*connection_);
  }

  testing::FakeDriver driver_;
  std::unique_ptr<Connection> connection_;
  std::unique_ptr<ControllerClient> client_;
};

v1::CreateSnapshotRequest CreateRequest() {
  v1::CreateSnapshotRequest request;
  request.set_source_volume_id("vol-1");
  request.set_name("snapshot-0a1b");
  (*request.mutable_parameters())["tier"] = "gold";
  (*request.mutable_secrets())["password"] = "hunter2";
  return request;
}

TEST_F(ControllerSnapshotCallsTest, CreateSnapshotSendsRequestAndReturnsTheSnapshot) {
  v1::CreateSnapshotRequest seen;
  driver_.create_snapshot = [&](auto*, const v1::CreateSnapshotRequest& request,
                                v1::CreateSnapshotResponse* response) {
    seen = request;
    v1::Snapshot* snapshot = response->mutable_snapshot();
    snapshot->set_snapshot_id("snap-1");
    snapshot->set_source_volume_id("vol-1");
    snapshot->set_size_bytes(1 << 30);
    snapshot->set_ready_to_use(true);
    snapshot->mutable_creation_time()->set_seconds(1700000000);
    return grpc::Status::OK;
  };
  Connect();
  auto response = client_->CreateSnapshot(CreateRequest(), {.timeout = 5s});
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(seen.SerializeAsString(), CreateRequest().SerializeAsString());
  EXPECT_EQ(response->snapshot().snapshot_id(), "snap-1");
  EXPECT_EQ(response->snapshot().size_bytes(), 1 << 30);
  EXPECT_TRUE(response->snapshot().ready_to_use());
  EXPECT_EQ(response->snapshot().creation_time().seconds(), 1700000000);
}

TEST_F(ControllerSnapshotCallsTest, CreateSnapshotDriverErrorKeepsCode) {
  driver_.create_snapshot = [](auto*, auto&, auto*) {
    return grpc::Status(grpc::StatusCode::ABORTED, "pending");
  };
  Connect();
  auto response = client_->CreateSnapshot(CreateRequest(), {.timeout = 5s});
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error().code, grpc::StatusCode::ABORTED);
  EXPECT_EQ(response.error().message, "rpc error: code = Aborted desc = pending");
}

TEST_F(ControllerSnapshotCallsTest, CreateSnapshotDeadlineExpiryIsDeadlineExceeded) {
  driver_.create_snapshot = [](grpc::ServerContext* context, auto&, auto*) {
    testing::WaitForCancel(context);
    return grpc::Status::OK;
  };
  Connect();
  auto response = client_->CreateSnapshot(CreateRequest(), {.timeout = 100ms});
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error().code, grpc::StatusCode::DEADLINE_EXCEEDED);
}

TEST_F(ControllerSnapshotCallsTest, SnapshotCallsNeverLogSecrets) {
  testing::LogCapture logs(/*verbosity=*/5);
  driver_.create_snapshot = [](auto*, auto&, auto*) { return grpc::Status::OK; };
  Connect();
  ASSERT_TRUE(client_->CreateSnapshot(CreateRequest(), {.timeout = 5s}).ok());
  v1::DeleteSnapshotRequest del;
  del.set_snapshot_id("snap-1");
  (*del.mutable_secrets())["password"] = "hunter2";
  ASSERT_TRUE(client_->DeleteSnapshot(del, {.timeout = 5s}).ok());
  v1::ListSnapshotsRequest list;
  list.set_snapshot_id("snap-1");
  (*list.mutable_secrets())["password"] = "hunter2";
  ASSERT_TRUE(client_->ListSnapshots(list, {.timeout = 5s}).ok());

  EXPECT_EQ(logs.Grep("GRPC call").size(), 3u);  // the requests were logged...
  EXPECT_THAT(logs.Grep("hunter2"), IsEmpty());  // ...without their secrets
}

TEST_F(ControllerSnapshotCallsTest, DeleteSnapshotSendsRequest) {
  v1::DeleteSnapshotRequest seen;
  driver_.delete_snapshot = [&](auto*, const v1::DeleteSnapshotRequest& request, auto*) {
    seen = request;
    return grpc::Status::OK;
  };
  Connect();
  v1::DeleteSnapshotRequest request;
  request.set_snapshot_id("snap-1");
  (*request.mutable_secrets())["password"] = "hunter2";
  ASSERT_TRUE(client_->DeleteSnapshot(request, {.timeout = 5s}).ok());
  EXPECT_EQ(seen.SerializeAsString(), request.SerializeAsString());
}

TEST_F(ControllerSnapshotCallsTest, DeleteSnapshotDriverErrorKeepsCode) {
  driver_.delete_snapshot = [](auto*, auto&, auto*) {
    return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, "snapshot in use");
  };
  Connect();
  auto status = client_->DeleteSnapshot({}, {.timeout = 5s});
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(status.error().message, "rpc error: code = FailedPrecondition desc = snapshot in use");
}

TEST_F(ControllerSnapshotCallsTest, ListSnapshotsSendsRequestAndReturnsEntries) {
  v1::ListSnapshotsRequest seen;
  driver_.list_snapshots = [&](auto*, const v1::ListSnapshotsRequest& request,
                               v1::ListSnapshotsResponse* response) {
    seen = request;
    v1::Snapshot* snapshot = response->add_entries()->mutable_snapshot();
    snapshot->set_snapshot_id("snap-1");
    snapshot->set_group_snapshot_id("group-1");
    return grpc::Status::OK;
  };
  Connect();
  v1::ListSnapshotsRequest request;
  request.set_snapshot_id("snap-1");
  (*request.mutable_secrets())["password"] = "hunter2";
  auto response = client_->ListSnapshots(request, {.timeout = 5s});
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(seen.SerializeAsString(), request.SerializeAsString());
  ASSERT_EQ(response->entries_size(), 1);
  EXPECT_EQ(response->entries(0).snapshot().group_snapshot_id(), "group-1");
}

TEST_F(ControllerSnapshotCallsTest, ListSnapshotsDriverErrorKeepsCode) {
  driver_.list_snapshots = [](auto*, auto&, auto*) {
    return grpc::Status(grpc::StatusCode::UNAVAILABLE, "backend down");
  };
  Connect();
  auto response = client_->ListSnapshots({}, {.timeout = 5s});
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error().code, grpc::StatusCode::UNAVAILABLE);
}

}  // namespace
}  // namespace csi
