// docs/snapshots.md §4.3 createSnapshotContent step 3: the content the
// controller creates for a dynamic VolumeSnapshot.
#include "snapshot_controller/dynamic_content.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "snapshot/names.h"

namespace snapshot_controller {
namespace {

kube::VolumeSnapshot Snapshot() {
  kube::VolumeSnapshot snapshot;
  snapshot.metadata.namespace_ = "team-a";
  snapshot.metadata.name = "snap-1";
  snapshot.metadata.uid = "0b9f-42";
  snapshot.metadata.resource_version = "731";
  snapshot.spec.source.persistent_volume_claim_name = "data";
  snapshot.spec.volume_snapshot_class_name = "gold";
  return snapshot;
}

kube::VolumeSnapshotClass GoldClass(kube::StringMap parameters = {}) {
  kube::VolumeSnapshotClass snapshot_class;
  snapshot_class.metadata.name = "gold";
  snapshot_class.driver = "hostpath.csi.k8s.io";
  snapshot_class.deletion_policy = std::string(kube::kDeletionPolicyRetain);
  snapshot_class.parameters = std::move(parameters);
  return snapshot_class;
}

kube::PersistentVolume CsiVolume(std::string volume_mode = "Block") {
  kube::PersistentVolume volume;
  volume.metadata.name = "pv-1";
  volume.spec.volume_mode = std::move(volume_mode);
  volume.spec.source = kube::CSIPersistentVolumeSource{.driver = "other-name-in-pv",
                                                       .volume_handle = "vol-7",
                                                       .fs_type = {},
                                                       .read_only = false,
                                                       .volume_attributes = {},
                                                       .controller_publish_secret_ref = {}};
  return volume;
}

TEST(DynamicContentFor, IsNamedAfterTheSnapshotUidAndReferencesItFully) {
  auto content = DynamicContentFor(Snapshot(), GoldClass(), CsiVolume(), {});
  ASSERT_TRUE(content.ok()) << content.error().message;
  EXPECT_EQ(content->metadata.name, "snapcontent-0b9f-42");
  // Its own finalizer is in the POST, not patched in after it (§9.4).
  EXPECT_THAT(content->metadata.finalizers,
              ::testing::ElementsAre(
                  "snapshot.storage.kubernetes.io/volumesnapshotcontent-bound-protection"));
  EXPECT_EQ(content->spec.volume_snapshot_ref,
            (kube::ObjectReference{.kind = "VolumeSnapshot",
                                   .namespace_ = "team-a",
                                   .name = "snap-1",
                                   .uid = "0b9f-42",
                                   .api_version = "snapshot.storage.k8s.io/v1",
                                   .resource_version = "731"}));
}

TEST(DynamicContentFor, TakesTheVolumeHandleFromThePvAndTheRestFromTheClass) {
  auto content = DynamicContentFor(Snapshot(), GoldClass(), CsiVolume(), {});
  ASSERT_TRUE(content.ok()) << content.error().message;
  EXPECT_EQ(content->spec.source,
            (kube::VolumeSnapshotContentSource{.volume_handle = "vol-7", .snapshot_handle = {}}));
  EXPECT_EQ(content->spec.volume_snapshot_class_name, "gold");
  EXPECT_EQ(content->spec.deletion_policy, "Retain");
  EXPECT_EQ(content->spec.driver, "hostpath.csi.k8s.io");  // the class's, not the PV's
  EXPECT_FALSE(content->status.has_value());
  EXPECT_TRUE(content->metadata.labels.empty());
  EXPECT_TRUE(content->metadata.annotations.empty());
}

TEST(DynamicContentFor, SourceVolumeModeOnlyWithPreventVolumeModeConversion) {
  struct Case {
    std::string rule;
    bool prevent;
    std::string pv_mode;
    std::optional<std::string> expected;
  };
  for (const Case& c : std::vector<Case>{
           {"off: never recorded", false, "Block", std::nullopt},
           {"on: the PV's Block", true, "Block", "Block"},
           {"on: the PV's Filesystem", true, "Filesystem", "Filesystem"},
           {"on: a PV without volumeMode records none", true, "", std::nullopt},
       }) {
    SCOPED_TRACE(c.rule);
    auto content = DynamicContentFor(Snapshot(), GoldClass(), CsiVolume(c.pv_mode),
                                     {.prevent_volume_mode_conversion = c.prevent});
    ASSERT_TRUE(content.ok()) << content.error().message;
    EXPECT_EQ(content->spec.source_volume_mode, c.expected);
  }
}

TEST(DynamicContentFor, ManagedByLabelNamesTheNodeWhenGiven) {
  auto content =
      DynamicContentFor(Snapshot(), GoldClass(), CsiVolume(), {.managed_by_node = "node-3"});
  ASSERT_TRUE(content.ok()) << content.error().message;
  EXPECT_EQ(content->metadata.labels,
            (kube::StringMap{{std::string(snapshot::kManagedByLabel), "node-3"}}));
}

TEST(DynamicContentFor, SnapshotterSecretBecomesTheDeletionSecretAnnotations) {
  auto content = DynamicContentFor(
      Snapshot(),
      GoldClass(
          {{std::string(snapshot::kSnapshotterSecretNameKey), "${volumesnapshot.name}-creds"},
           {std::string(snapshot::kSnapshotterSecretNamespaceKey), "${volumesnapshot.namespace}"}}),
      CsiVolume(), {});
  ASSERT_TRUE(content.ok()) << content.error().message;
  EXPECT_EQ(
      content->metadata.annotations,
      (kube::StringMap{{std::string(snapshot::kDeletionSecretNameAnnotation), "snap-1-creds"},
                       {std::string(snapshot::kDeletionSecretNamespaceAnnotation), "team-a"}}));
}

TEST(DynamicContentFor, SecretTemplateErrorsAreWrappedAsUpstreamDoes) {
  auto content = DynamicContentFor(
      Snapshot(), GoldClass({{std::string(snapshot::kSnapshotterSecretNameKey), "creds"}}),
      CsiVolume(), {});
  ASSERT_FALSE(content.ok());
  EXPECT_EQ(content.error().message,
            "failed to get input parameters to create snapshot snap-1: \"failed to get name and "
            "namespace template from params: either name and namespace for Snapshotter secrets "
            "specified, Both must be specified\"");
}

TEST(DynamicContentFor, APvWithoutCsiSourceIsAnError) {
  kube::PersistentVolume volume = CsiVolume();
  volume.spec.source = std::monostate{};
  auto content = DynamicContentFor(Snapshot(), GoldClass(), volume, {});
  ASSERT_FALSE(content.ok());
  EXPECT_EQ(content.error().message, "cannot find CSI PersistentVolumeSource for volume pv-1");
}

}  // namespace
}  // namespace snapshot_controller
