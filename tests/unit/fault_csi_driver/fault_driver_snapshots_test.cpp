// The fault driver as a plain snapshot-capable driver: the CSI spec's
// CreateSnapshot idempotency, DeleteSnapshot and ListSnapshots semantics, and
// what the state file records about snapshots.
#include <google/protobuf/util/time_util.h>

#include "tests/unit/fault_csi_driver/snapshot_fixture.h"

namespace faultdriver {
namespace {

using google::protobuf::util::TimeUtil;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::StartsWith;

class FaultDriverSnapshotsTest : public SnapshotFixture {};

std::vector<std::string> Ids(const std::vector<csi::v1::Snapshot>& snapshots) {
  std::vector<std::string> ids;
  for (const auto& snapshot : snapshots) ids.push_back(snapshot.snapshot_id());
  return ids;
}

TEST_F(FaultDriverSnapshotsTest, CreateSnapshotReportsSourceCapacityCreationTimeAndReady) {
  StartSnapshotDriver();
  const auto before = TimeUtil::GetCurrentTime();
  csi::v1::CreateSnapshotResponse response;
  ASSERT_TRUE(CreateSnapshot(CreateRequest("snap-a"), &response).ok());
  const auto after = TimeUtil::GetCurrentTime();

  const csi::v1::Snapshot& snapshot = response.snapshot();
  EXPECT_THAT(snapshot.snapshot_id(), StartsWith("handle-"));
  EXPECT_EQ(snapshot.source_volume_id(), kVolume);
  EXPECT_EQ(snapshot.size_bytes(), kVolumeBytes);
  EXPECT_TRUE(snapshot.ready_to_use());
  EXPECT_GE(snapshot.creation_time(), before);
  EXPECT_LE(snapshot.creation_time(), after);

  nlohmann::json state = ReadState();
  EXPECT_EQ(state["existing_snapshots"], (nlohmann::json{snapshot.snapshot_id()}));
  const nlohmann::json& entry = state["snapshots"]["snap-a"];
  EXPECT_EQ(entry["snapshot_id"], snapshot.snapshot_id());
  EXPECT_EQ(entry["exists"], true);
  EXPECT_EQ(entry["ready"], true);
  EXPECT_EQ(entry["size_bytes"], kVolumeBytes);
  EXPECT_EQ(entry["creation_time"], TimeUtil::ToString(snapshot.creation_time()));
  EXPECT_EQ(entry["create_calls"], 1);
}

TEST_F(FaultDriverSnapshotsTest, SourceWithoutKnownCapacityGetsSnapshotSizeBytesFlag) {
  StartSnapshotDriver({"--snapshot-size-bytes=12345"});
  csi::v1::CreateSnapshotResponse response;
  ASSERT_TRUE(CreateSnapshot(CreateRequest("snap-a", kSizelessVolume), &response).ok());
  EXPECT_EQ(response.snapshot().size_bytes(), 12345);
}

TEST_F(FaultDriverSnapshotsTest, SameNameAndSourceAnswersTheSameSnapshot) {
  StartSnapshotDriver();
  csi::v1::CreateSnapshotResponse first, second;
  ASSERT_TRUE(CreateSnapshot(CreateRequest("snap-a"), &first).ok());
  ASSERT_TRUE(CreateSnapshot(CreateRequest("snap-a"), &second).ok());
  EXPECT_EQ(second.snapshot().snapshot_id(), first.snapshot().snapshot_id());
  EXPECT_EQ(second.snapshot().creation_time(), first.snapshot().creation_time());

  nlohmann::json state = ReadState();
  EXPECT_EQ(state["existing_snapshots"].size(), 1u);
  EXPECT_EQ(state["snapshots"]["snap-a"]["create_calls"], 2);
}

TEST_F(FaultDriverSnapshotsTest, SameNameFromAnotherSourceIsAlreadyExists) {
  StartSnapshotDriver();
  const std::string id = CreateSnapshotId("snap-a", kVolume);
  grpc::Status status = CreateSnapshot("snap-a", kSizelessVolume);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_THAT(status.error_message(), HasSubstr(kVolume));
  EXPECT_EQ(ReadState()["existing_snapshots"], (nlohmann::json{id}));
}

TEST_F(FaultDriverSnapshotsTest, UnknownSourceVolumeIsNotFound) {
  StartSnapshotDriver();
  EXPECT_EQ(CreateSnapshot("snap-a", "no-such-volume").error_code(), grpc::StatusCode::NOT_FOUND);
  nlohmann::json state = ReadState();
  EXPECT_THAT(state["existing_snapshots"], IsEmpty());
  EXPECT_EQ(state["snapshots"]["snap-a"]["exists"], false);
  EXPECT_EQ(state["snapshots"]["snap-a"]["create_calls"], 1);
}

// Volumes an attacher test published are the back end's as well.
TEST_F(FaultDriverSnapshotsTest, PublishedVolumeIsAKnownSource) {
  StartSnapshotDriver();
  ASSERT_TRUE(Publish("published").ok());
  EXPECT_TRUE(CreateSnapshot("snap-a", "published").ok());
}

TEST_F(FaultDriverSnapshotsTest, MissingNameOrSourceIsInvalidArgument) {
  StartSnapshotDriver();
  EXPECT_EQ(CreateSnapshot("", kVolume).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(CreateSnapshot("snap-a", "").error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(DeleteSnapshot("").error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(ReadState()["existing_snapshots"], IsEmpty());
}

TEST_F(FaultDriverSnapshotsTest, DeleteSnapshotRemovesItAndUnknownIdIsOk) {
  StartSnapshotDriver();
  const std::string id = CreateSnapshotId("snap-a");
  EXPECT_TRUE(DeleteSnapshot(id).ok());
  EXPECT_TRUE(DeleteSnapshot(id).ok());
  EXPECT_TRUE(DeleteSnapshot("never-handed-out").ok());

  nlohmann::json state = ReadState();
  EXPECT_THAT(state["existing_snapshots"], IsEmpty());
  EXPECT_EQ(state["snapshots"]["snap-a"]["exists"], false);
  EXPECT_EQ(state["snapshots"]["snap-a"]["delete_calls"], 2);
  EXPECT_EQ(state["calls"][1]["response"]["deleted"], true);
  EXPECT_EQ(state["calls"][2]["response"]["deleted"], false);
  EXPECT_THAT(ListById(id), IsEmpty());
}

TEST_F(FaultDriverSnapshotsTest, NameCreatedAgainAfterDeleteGetsANewId) {
  StartSnapshotDriver();
  const std::string first = CreateSnapshotId("snap-a");
  ASSERT_TRUE(DeleteSnapshot(first).ok());
  const std::string second = CreateSnapshotId("snap-a");
  EXPECT_NE(second, first);
  EXPECT_TRUE(DeleteSnapshot(first).ok());  // the old ID is gone; the new snapshot stays
  EXPECT_EQ(ReadState()["existing_snapshots"], (nlohmann::json{second}));
}

TEST_F(FaultDriverSnapshotsTest, ListSnapshotsByIdBySourceAndAll) {
  StartSnapshotDriver();
  const std::string a = CreateSnapshotId("snap-a", kVolume);
  const std::string b = CreateSnapshotId("snap-b", kSizelessVolume);
  const std::string c = CreateSnapshotId("snap-c", kVolume);

  EXPECT_THAT(Ids(ListById(b)), ElementsAre(b));
  EXPECT_THAT(ListById("no-such-snapshot"), IsEmpty());

  csi::v1::ListSnapshotsRequest by_source;
  by_source.set_source_volume_id(kVolume);
  csi::v1::ListSnapshotsResponse response;
  ASSERT_TRUE(ListSnapshots(by_source, &response).ok());
  std::vector<std::string> ids;
  for (const auto& entry : response.entries()) ids.push_back(entry.snapshot().snapshot_id());
  EXPECT_THAT(ids, ElementsAre(a, c));

  by_source.set_source_volume_id("no-such-volume");
  response.Clear();
  ASSERT_TRUE(ListSnapshots(by_source, &response).ok());
  EXPECT_THAT(response.entries(), IsEmpty());

  csi::v1::ListSnapshotsRequest id_and_other_source;
  id_and_other_source.set_snapshot_id(a);
  id_and_other_source.set_source_volume_id(kSizelessVolume);
  response.Clear();
  ASSERT_TRUE(ListSnapshots(id_and_other_source, &response).ok());
  EXPECT_THAT(response.entries(), IsEmpty());

  ASSERT_TRUE(DeleteSnapshot(b).ok());
  response.Clear();
  ASSERT_TRUE(ListSnapshots({}, &response).ok());
  ASSERT_EQ(response.entries_size(), 2);
  EXPECT_EQ(response.entries(0).snapshot().snapshot_id(), a);
  EXPECT_EQ(response.entries(0).snapshot().size_bytes(), kVolumeBytes);
  EXPECT_EQ(response.entries(1).snapshot().snapshot_id(), c);
  EXPECT_EQ(ReadState()["snapshots"]["snap-b"]["list_calls"], 1);
}

TEST_F(FaultDriverSnapshotsTest, ListSnapshotsPagesWithMaxEntriesAndStartingToken) {
  StartSnapshotDriver();
  std::vector<std::string> created;
  for (const char* name : {"s1", "s2", "s3", "s4", "s5"}) created.push_back(CreateSnapshotId(name));

  csi::v1::ListSnapshotsRequest request;
  request.set_max_entries(2);
  csi::v1::ListSnapshotsResponse first_page;
  ASSERT_TRUE(ListSnapshots(request, &first_page).ok());
  ASSERT_EQ(first_page.entries_size(), 2);
  ASSERT_FALSE(first_page.next_token().empty());
  // Deleting a listed and the next page's first snapshot neither shifts nor repeats entries.
  ASSERT_TRUE(DeleteSnapshot(created[0]).ok());
  ASSERT_TRUE(DeleteSnapshot(created[2]).ok());

  std::vector<std::string> seen = {first_page.entries(0).snapshot().snapshot_id(),
                                   first_page.entries(1).snapshot().snapshot_id()};
  std::vector<int> page_sizes = {first_page.entries_size()};
  request.set_starting_token(first_page.next_token());
  while (!request.starting_token().empty()) {
    csi::v1::ListSnapshotsResponse page;
    ASSERT_TRUE(ListSnapshots(request, &page).ok());
    page_sizes.push_back(page.entries_size());
    for (const auto& entry : page.entries()) seen.push_back(entry.snapshot().snapshot_id());
    request.set_starting_token(page.next_token());
  }
  EXPECT_THAT(page_sizes, ElementsAre(2, 2));
  EXPECT_THAT(seen, ElementsAre(created[0], created[1], created[3], created[4]));

  for (const char* bad : {"no-such-token", "0", "99"}) {
    request.set_starting_token(bad);
    csi::v1::ListSnapshotsResponse response;
    EXPECT_EQ(ListSnapshots(request, &response).error_code(), grpc::StatusCode::ABORTED) << bad;
  }
}

TEST_F(FaultDriverSnapshotsTest, StateFileRecordsParametersAndSecretKeysWithoutSecretValues) {
  StartSnapshotDriver();
  csi::v1::CreateSnapshotRequest request = CreateRequest("snap-a");
  (*request.mutable_parameters())["tier"] = "gold";
  (*request.mutable_secrets())["password"] = "s3cr3t-value";
  csi::v1::CreateSnapshotResponse response;
  ASSERT_TRUE(CreateSnapshot(request, &response).ok());
  csi::v1::DeleteSnapshotRequest delete_request;
  delete_request.set_snapshot_id(response.snapshot().snapshot_id());
  (*delete_request.mutable_secrets())["token"] = "d3lete-value";
  csi::v1::DeleteSnapshotResponse deleted;
  ASSERT_TRUE(controller_->DeleteSnapshot(Context().get(), delete_request, &deleted).ok());

  nlohmann::json state = ReadState();
  const nlohmann::json& entry = state["snapshots"]["snap-a"];
  EXPECT_EQ(entry["parameters"], (nlohmann::json{{"tier", "gold"}}));
  EXPECT_EQ(entry["secrets"], (nlohmann::json{"password"}));
  const nlohmann::json& create = state["calls"][0];
  EXPECT_EQ(create["method"], "CreateSnapshot");
  EXPECT_EQ(create["request"]["name"], "snap-a");
  EXPECT_EQ(create["request"]["source_volume_id"], kVolume);
  EXPECT_EQ(create["request"]["parameters"], (nlohmann::json{{"tier", "gold"}}));
  EXPECT_EQ(create["request"]["secrets"], (nlohmann::json{"password"}));
  EXPECT_EQ(create["response"]["snapshot"]["snapshot_id"], response.snapshot().snapshot_id());
  EXPECT_EQ(create["response"]["snapshot"]["ready_to_use"], true);
  EXPECT_EQ(state["calls"][1]["request"]["secrets"], (nlohmann::json{"token"}));

  for (const char* secret : {"s3cr3t-value", "d3lete-value"}) {
    EXPECT_THAT(ReadText(StatePath()), Not(HasSubstr(secret)));
  }
  driver_->Stop();  // the log is complete once the driver is gone
  EXPECT_THAT(ReadText(LogPath()), HasSubstr("CreateSnapshot"));
  for (const char* secret : {"s3cr3t-value", "d3lete-value"}) {
    EXPECT_THAT(ReadText(LogPath()), Not(HasSubstr(secret)));
  }
}

}  // namespace
}  // namespace faultdriver
