// The snapshot CRDs on the test control plane (docs/snapshots.md §2): all six
// Established, and their CEL rules enforced by the API server.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/integration/snapshotter/snapshot_fixture.h"
#include "tests/support/custom_resources.h"

namespace snapshot_it {
namespace {

using ::testing::HasSubstr;

kube::VolumeSnapshot Snapshot(const std::string& name) {
  kube::VolumeSnapshot snapshot;
  snapshot.metadata.namespace_ = "default";
  snapshot.metadata.name = name;
  return snapshot;
}

TEST_F(SnapshotTest, AllSixSnapshotCrdsAreEstablished) {
  for (const char* crd :
       {"volumesnapshots.snapshot.storage.k8s.io", "volumesnapshotcontents.snapshot.storage.k8s.io",
        "volumesnapshotclasses.snapshot.storage.k8s.io",
        "volumegroupsnapshots.groupsnapshot.storage.k8s.io",
        "volumegroupsnapshotcontents.groupsnapshot.storage.k8s.io",
        "volumegroupsnapshotclasses.groupsnapshot.storage.k8s.io"}) {
    auto established = testsupport::CheckEstablished(*admin_, crd);
    EXPECT_TRUE(established.ok()) << established.error().message;
  }
  EXPECT_TRUE(admin_->List<kube::VolumeSnapshotContent>("").ok());
}

TEST_F(SnapshotTest, CelRuleRejectsVolumeSnapshotWithBothSources) {
  kube::VolumeSnapshot both = Snapshot("cel-both-sources");
  both.spec.source.persistent_volume_claim_name = "pvc-1";
  both.spec.source.volume_snapshot_content_name = "content-1";
  auto refused = admin_->Create(both);
  ASSERT_FALSE(refused.ok()) << "a VolumeSnapshot with both sources was accepted";
  EXPECT_TRUE(refused.error().IsHttp(422)) << refused.error().message;
  EXPECT_THAT(refused.error().message, HasSubstr("exactly one of volumeSnapshotContentName and "
                                                 "persistentVolumeClaimName must be set"));

  // The same object with one source is accepted: the rule, not the shape,
  // refused the first.
  kube::VolumeSnapshot one = Snapshot("cel-one-source");
  one.spec.source.persistent_volume_claim_name = "pvc-1";
  auto accepted = admin_->Create(one);
  ASSERT_TRUE(accepted.ok()) << accepted.error().message;
  EXPECT_TRUE(admin_->Delete<kube::VolumeSnapshot>("default", "cel-one-source").ok());
}

TEST_F(SnapshotTest, CelRuleRejectsEmptySnapshotClassName) {
  kube::VolumeSnapshot snapshot = Snapshot("cel-empty-class");
  snapshot.spec.source.persistent_volume_claim_name = "pvc-1";
  snapshot.spec.volume_snapshot_class_name = "";
  auto refused = admin_->Create(snapshot);
  ASSERT_FALSE(refused.ok()) << "an empty volumeSnapshotClassName was accepted";
  EXPECT_TRUE(refused.error().IsHttp(422)) << refused.error().message;
  EXPECT_THAT(refused.error().message,
              HasSubstr("volumeSnapshotClassName must not be the empty string when set"));
}

}  // namespace
}  // namespace snapshot_it
