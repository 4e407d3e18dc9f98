// GroupMembers (docs/snapshots.md §4.7): one member content and snapshot per
// entry of the group content's volumeSnapshotInfoList, named by upstream's
// SHA-256 rule, bound to each other and given the entry's status; nothing
// before the sidecar reported the group; no write for members already as
// they should be; and §9.11: a ready member never goes back to unready.
#include "snapshot_controller/group_members.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "snapshot_controller/group_member_objects.h"
#include "tests/unit/snapshot_controller/group_fixture.h"

namespace snapshot_controller::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// sha256hex(kGroupUid + "vol-1") and (... + "vol-2"), computed apart.
constexpr char kHash1[] = "9968d9c7bc4b3c620635926a0039540fca046f8165f66af4543b905106cb76cd";
constexpr char kHash2[] = "41acf27bb1aa669d98f4a77e238372f96f84d8fd479ff22d85de2a6e88158f1c";
const std::string kMember1 = std::string("snapshot-") + kHash1;
const std::string kMemberContent1 = std::string("snapcontent-") + kHash1;

// Member `n`'s content as upstream builds it (before its snapshot's UID).
kube::VolumeSnapshotContent MemberContent(int n, const std::string& hash) {
  kube::VolumeSnapshotContent content;
  content.metadata.name = "snapcontent-" + hash;
  content.metadata.annotations = {
      {"groupsnapshot.storage.k8s.io/volumeGroupSnapshotHandle", "group-handle"}};
  content.spec.volume_snapshot_ref.kind = "VolumeSnapshot";
  content.spec.volume_snapshot_ref.name = "snapshot-" + hash;
  content.spec.volume_snapshot_ref.namespace_ = "default";
  content.spec.deletion_policy = "Delete";
  content.spec.driver = std::string(kDriver);
  content.spec.source.volume_handle = "vol-" + std::to_string(n);
  content.spec.source_volume_mode = "Filesystem";
  return content;
}

kube::VolumeSnapshot MemberSnapshot(int n, const std::string& hash) {
  kube::VolumeSnapshot snapshot;
  snapshot.metadata.name = "snapshot-" + hash;
  snapshot.metadata.namespace_ = "default";
  snapshot.metadata.owner_references = {{.api_version = "groupsnapshot.storage.k8s.io/v1",
                                         .kind = "VolumeGroupSnapshot",
                                         .name = "group-1",
                                         .uid = std::string(kGroupUid)}};
  snapshot.metadata.finalizers = {kInGroup};
  snapshot.spec.source.persistent_volume_claim_name = "claim-" + std::to_string(n);
  return snapshot;
}

// The five calls that make member `n` from nothing.
std::vector<ApiCall> MakesMember(int n, const std::string& hash, bool ready) {
  const std::string snapshot = "snapshot-" + hash;
  const std::string content = "snapcontent-" + hash;
  return {
      CreateCall(kContents, MemberContent(n, hash)),
      CreateCall(kSnapshots, MemberSnapshot(n, hash)),
      PatchCall(kContents, content, "json",
                nlohmann::json{{{"op", "replace"},
                                {"path", "/spec/volumeSnapshotRef/uid"},
                                {"value", "uid-" + snapshot}}}
                    .dump()),
      PatchCall(kSnapshots, "default/" + snapshot, "merge",
                nlohmann::json{{"metadata", {{"resourceVersion", "1"}}},
                               {"status",
                                {{"boundVolumeSnapshotContentName", content},
                                 {"volumeGroupSnapshotName", "group-1"}}}}
                    .dump(),
                /*status=*/true),
      PatchCall(kContents, content, "merge",
                nlohmann::json{{"metadata", {{"resourceVersion", "2"}}},
                               {"status",
                                {{"creationTime", 1700000000000000000},
                                 {"readyToUse", ready},
                                 {"restoreSize", 1073741824},
                                 {"snapshotHandle", "snap-vol-" + std::to_string(n)},
                                 {"volumeGroupSnapshotHandle", "group-handle"}}}}
                    .dump(),
                /*status=*/true),
  };
}

class GroupMembersTest : public GroupHandlerTest {
 protected:
  GroupMembersTest() {
    Have(GroupClass());
    for (int n : {1, 2}) Have(GroupVolume(n, [](auto& v) { v.spec.volume_mode = "Filesystem"; }));
  }
  base::Status Ensure(const kube::VolumeGroupSnapshotContent& content) {
    return members_.Ensure(Decoded(GroupSnapshot()), Decoded(content));
  }
  GroupMembers members_{api_, caches_.caches()};
};

TEST_F(GroupMembersTest, NamesAreUpstreamsSha256OfTheGroupUidAndVolumeHandle) {
  EXPECT_EQ(MemberSnapshotName(kGroupUid, "vol-1"), kMember1);
  EXPECT_EQ(MemberContentName(kGroupUid, "vol-1"), kMemberContent1);
  EXPECT_EQ(MemberSnapshotName(kGroupUid, "vol-2"), std::string("snapshot-") + kHash2);
}

TEST_F(GroupMembersTest, EachEntryGetsABoundMemberContentAndSnapshotWithItsStatus) {
  ASSERT_TRUE(Ensure(ReportedGroupContent(true)).ok());

  std::vector<ApiCall> expected = MakesMember(1, kHash1, true);
  for (ApiCall& call : MakesMember(2, kHash2, true)) expected.push_back(call);
  EXPECT_EQ(api_.calls(), expected);
  auto snapshot = api_.Stored<kube::VolumeSnapshot>("default", kMember1);
  ASSERT_TRUE(snapshot);
  EXPECT_EQ(snapshot->status->volume_group_snapshot_name, "group-1");
  EXPECT_THAT(snapshot->metadata.finalizers, ElementsAre(kInGroup));
  auto content = StoredContent(kMemberContent1);
  EXPECT_EQ(content->spec.volume_snapshot_ref.uid, "uid-" + kMember1);
  EXPECT_EQ(content->status->ready_to_use, true);
  EXPECT_THAT(events_.events(), IsEmpty());  // upstream records none either
}

TEST_F(GroupMembersTest, NothingIsMadeBeforeTheSidecarReportedTheGroup) {
  ASSERT_TRUE(Ensure(GroupContent()).ok());
  ASSERT_TRUE(Ensure(ReportedGroupContent(true, [](auto& c) {
                c.status->volume_group_snapshot_handle.reset();
              })).ok());
  ASSERT_TRUE(Ensure(ReportedGroupContent(true, [](auto& c) {
                c.status->volume_snapshot_info_list.clear();
              })).ok());
  EXPECT_THAT(api_.calls(), IsEmpty());
}

TEST_F(GroupMembersTest, MembersAlreadyAsTheyShouldBeCostNoWrite) {
  ASSERT_TRUE(Ensure(ReportedGroupContent(true)).ok());
  for (const std::string& hash : {std::string(kHash1), std::string(kHash2)}) {
    InCache(*api_.Stored<kube::VolumeSnapshot>("default", "snapshot-" + hash));
    InCache(*StoredContent("snapcontent-" + hash));
  }
  api_.ClearCalls();

  ASSERT_TRUE(Ensure(ReportedGroupContent(true)).ok());

  EXPECT_THAT(api_.calls(), IsEmpty());
}

// §9.11: the sidecar's info list may still say "not ready" after a member
// was found ready; the member content keeps readyToUse true.
TEST_F(GroupMembersTest, ReadyMemberNeverGoesBackToUnready) {
  ASSERT_TRUE(Ensure(ReportedGroupContent(true)).ok());
  for (const std::string& hash : {std::string(kHash1), std::string(kHash2)}) {
    InCache(*api_.Stored<kube::VolumeSnapshot>("default", "snapshot-" + hash));
    InCache(*StoredContent("snapcontent-" + hash));
  }
  api_.ClearCalls();

  ASSERT_TRUE(Ensure(ReportedGroupContent(false)).ok());

  EXPECT_THAT(api_.calls(), IsEmpty());
  EXPECT_EQ(StoredContent(kMemberContent1)->status->ready_to_use, true);
}

TEST_F(GroupMembersTest, UnreadyMemberTurnsReadyWithItsEntry) {
  ASSERT_TRUE(Ensure(ReportedGroupContent(false)).ok());
  InCache(*api_.Stored<kube::VolumeSnapshot>("default", kMember1));
  InCache(*StoredContent(kMemberContent1));
  ASSERT_EQ(StoredContent(kMemberContent1)->status->ready_to_use, false);

  ASSERT_TRUE(Ensure(ReportedGroupContent(true)).ok());

  EXPECT_EQ(StoredContent(kMemberContent1)->status->ready_to_use, true);
}

// A member made by a sync whose answers were lost: AlreadyExists, then read.
TEST_F(GroupMembersTest, MemberThatExistsAlreadyIsReadAndBound) {
  kube::VolumeSnapshot snapshot = MemberSnapshot(1, kHash1);
  snapshot.metadata.uid = "uid-earlier";
  snapshot.metadata.resource_version = "3";
  api_.Put(Decoded(snapshot));
  kube::VolumeSnapshotContent content = MemberContent(1, kHash1);
  content.metadata.resource_version = "4";
  api_.Put(Decoded(content));

  ASSERT_TRUE(Ensure(ReportedGroupContent(true)).ok());

  std::vector<ApiCall> calls = api_.calls();
  ASSERT_GE(calls.size(), 4u);
  EXPECT_EQ(calls[0], CreateCall(kContents, MemberContent(1, kHash1)));
  EXPECT_EQ(calls[1], GetCall(kContents, kMemberContent1));
  EXPECT_EQ(calls[2], CreateCall(kSnapshots, MemberSnapshot(1, kHash1)));
  EXPECT_EQ(calls[3], GetCall(kSnapshots, "default/" + kMember1));
  EXPECT_EQ(StoredContent(kMemberContent1)->spec.volume_snapshot_ref.uid, "uid-earlier");
}

TEST_F(GroupMembersTest, MemberContentsNameTheClassesGroupSecretForTheirDeletion) {
  Have(GroupClass([](auto& c) {
    c.parameters = {
        {"csi.storage.k8s.io/group-snapshotter-secret-name", "${volumegroupsnapshotcontent.name}"},
        {"csi.storage.k8s.io/group-snapshotter-secret-namespace", "secrets"}};
  }));

  ASSERT_TRUE(Ensure(ReportedGroupContent(true)).ok());

  EXPECT_EQ(
      StoredContent(kMemberContent1)->metadata.annotations,
      (kube::StringMap{{"groupsnapshot.storage.k8s.io/volumeGroupSnapshotHandle", "group-handle"},
                       {"snapshot.storage.kubernetes.io/deletion-secret-name", kGroupContentName},
                       {"snapshot.storage.kubernetes.io/deletion-secret-namespace", "secrets"}}));
}

TEST_F(GroupMembersTest, FailedCreateReadsAsUpstream) {
  api_.Fail({"create", std::string(kContents), "", base::Error::Http(403, "forbidden")});
  auto made = Ensure(ReportedGroupContent(true));
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.error().message,
            "createIndividualSnapshotForGroupSnapshot: creating volumesnapshotcontent: forbidden");
}

}  // namespace
}  // namespace snapshot_controller::testing
