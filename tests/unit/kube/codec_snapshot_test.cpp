// VolumeSnapshotContent, VolumeSnapshotClass and VolumeSnapshot codecs: the
// objects as the API server serves them (docs/snapshots.md §2), and the
// distinctions the sidecar decides on: a nil status, an unset readyToUse.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "kube/api/codec.h"
#include "kube/api/resource.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"

namespace kube {
namespace {

TEST(VolumeSnapshotContentCodec, DecodesDynamicContentWithStatus) {
  auto content = DecodeObject<VolumeSnapshotContent>(R"json({
    "apiVersion": "snapshot.storage.k8s.io/v1", "kind": "VolumeSnapshotContent",
    "metadata": {"name": "snapcontent-6f1c", "resourceVersion": "901",
                 "finalizers": ["snapshot.storage.kubernetes.io/volumesnapshotcontent-bound-protection"],
                 "annotations": {"snapshot.storage.kubernetes.io/deletion-secret-name": "s"}},
    "spec": {"deletionPolicy": "Delete", "driver": "hostpath.csi.k8s.io",
             "source": {"volumeHandle": "vol-1"}, "sourceVolumeMode": "Filesystem",
             "volumeSnapshotClassName": "csi-hostpath-snapclass",
             "volumeSnapshotRef": {"apiVersion": "snapshot.storage.k8s.io/v1", "kind": "VolumeSnapshot",
                                   "name": "snap-1", "namespace": "default", "uid": "6f1c",
                                   "resourceVersion": "880"}},
    "status": {"creationTime": 1732425600123456789, "readyToUse": true,
               "restoreSize": 1073741824, "snapshotHandle": "snap-handle-1"}})json");
  ASSERT_TRUE(content.ok()) << content.error().message;
  EXPECT_EQ(content->spec.driver, "hostpath.csi.k8s.io");
  EXPECT_EQ(content->spec.source.volume_handle, "vol-1");
  EXPECT_FALSE(content->spec.source.snapshot_handle.has_value());
  EXPECT_EQ(content->spec.volume_snapshot_ref.uid, "6f1c");
  EXPECT_EQ(content->spec.volume_snapshot_class_name, "csi-hostpath-snapclass");
  ASSERT_TRUE(content->status.has_value());
  EXPECT_EQ(content->status->creation_time, 1732425600123456789);
  EXPECT_EQ(content->status->restore_size, 1073741824);
  EXPECT_EQ(content->status->ready_to_use, true);
  EXPECT_EQ(content->status->snapshot_handle, "snap-handle-1");
  EXPECT_FALSE(content->status->error.has_value());

  auto again = DecodeObject<VolumeSnapshotContent>(EncodeObject(*content));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(*again, *content);
}

TEST(VolumeSnapshotContentCodec, NilStatusAndUnsetReadyStayDistinctFromZeroValues) {
  auto fresh = DecodeObject<VolumeSnapshotContent>(R"json({
    "metadata": {"name": "c"},
    "spec": {"deletionPolicy": "Retain", "driver": "d", "source": {"snapshotHandle": "h"},
             "volumeSnapshotRef": {"name": "s", "namespace": "n"}}})json");
  ASSERT_TRUE(fresh.ok()) << fresh.error().message;
  EXPECT_FALSE(fresh->status.has_value());
  EXPECT_EQ(fresh->spec.source.snapshot_handle, "h");
  EXPECT_EQ(nlohmann::json::parse(EncodeObject(*fresh)).count("status"), 0u);

  auto erred = DecodeObject<VolumeSnapshotContent>(R"json({
    "metadata": {"name": "c"}, "spec": {"driver": "d"},
    "status": {"error": {"message": "boom", "time": "2026-11-24T04:00:00Z"}}})json");
  ASSERT_TRUE(erred.ok()) << erred.error().message;
  ASSERT_TRUE(erred->status.has_value());
  EXPECT_FALSE(erred->status->ready_to_use.has_value());
  ASSERT_TRUE(erred->status->error.has_value());
  EXPECT_EQ(erred->status->error->message, "boom");

  // readyToUse false is written, not dropped: an optional that holds false.
  VolumeSnapshotContentStatus status;
  status.ready_to_use = false;
  status.restore_size = 0;
  nlohmann::json encoded = nlohmann::json::parse(nlohmann::json(status).dump());
  EXPECT_EQ(encoded, nlohmann::json::parse(R"({"readyToUse": false, "restoreSize": 0})"));
}

TEST(VolumeSnapshotClassCodec, DecodesTopLevelFieldsAndPaths) {
  auto cls = DecodeObject<VolumeSnapshotClass>(R"json({
    "apiVersion": "snapshot.storage.k8s.io/v1", "kind": "VolumeSnapshotClass",
    "metadata": {"name": "csi-hostpath-snapclass",
                 "annotations": {"snapshot.storage.kubernetes.io/is-default-class": "true"}},
    "driver": "hostpath.csi.k8s.io", "deletionPolicy": "Delete",
    "parameters": {"csi.storage.k8s.io/snapshotter-secret-name": "s", "tier": "gold"}})json");
  ASSERT_TRUE(cls.ok()) << cls.error().message;
  EXPECT_EQ(cls->driver, "hostpath.csi.k8s.io");
  EXPECT_EQ(cls->deletion_policy, "Delete");
  EXPECT_EQ(cls->parameters.size(), 2u);
  EXPECT_EQ(ResourcePath<VolumeSnapshotClass>("", "c"),
            "/apis/snapshot.storage.k8s.io/v1/volumesnapshotclasses/c");
  EXPECT_EQ(ResourcePath<VolumeSnapshotContent>("", "c"),
            "/apis/snapshot.storage.k8s.io/v1/volumesnapshotcontents/c");
}

TEST(VolumeSnapshotCodec, DecodesSourceAndQuantityStatus) {
  auto snapshot = DecodeObject<VolumeSnapshot>(R"json({
    "apiVersion": "snapshot.storage.k8s.io/v1", "kind": "VolumeSnapshot",
    "metadata": {"name": "snap-1", "namespace": "default", "uid": "6f1c"},
    "spec": {"source": {"persistentVolumeClaimName": "pvc-1"}, "volumeSnapshotClassName": "c"},
    "status": {"boundVolumeSnapshotContentName": "snapcontent-6f1c", "readyToUse": false,
               "restoreSize": "1Gi", "creationTime": "2026-11-24T04:00:00Z"}})json");
  ASSERT_TRUE(snapshot.ok()) << snapshot.error().message;
  EXPECT_EQ(snapshot->spec.source.persistent_volume_claim_name, "pvc-1");
  ASSERT_TRUE(snapshot->status.has_value());
  EXPECT_EQ(snapshot->status->restore_size, "1Gi");
  EXPECT_EQ(snapshot->status->ready_to_use, false);
  EXPECT_EQ(ResourcePath<VolumeSnapshot>("default", "snap-1"),
            "/apis/snapshot.storage.k8s.io/v1/namespaces/default/volumesnapshots/snap-1");

  auto again = DecodeObject<VolumeSnapshot>(EncodeObject(*snapshot));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(*again, *snapshot);
}

TEST(VolumeSnapshotCodec, OwnerReferencesNameTheGroupAMemberBelongsTo) {
  auto snapshot = DecodeObject<VolumeSnapshot>(R"json({
    "metadata": {"name": "snapshot-9a", "namespace": "default",
                 "ownerReferences": [{"apiVersion": "groupsnapshot.storage.k8s.io/v1",
                                      "kind": "VolumeGroupSnapshot", "name": "group-1",
                                      "uid": "g-1", "controller": true}]},
    "spec": {"source": {"persistentVolumeClaimName": "claim-1"}}})json");
  ASSERT_TRUE(snapshot.ok()) << snapshot.error().message;
  ASSERT_EQ(snapshot->metadata.owner_references.size(), 1u);
  EXPECT_EQ(snapshot->metadata.owner_references[0],
            (OwnerReference{.api_version = "groupsnapshot.storage.k8s.io/v1",
                            .kind = "VolumeGroupSnapshot",
                            .name = "group-1",
                            .uid = "g-1",
                            .controller = true}));

  auto again = DecodeObject<VolumeSnapshot>(EncodeObject(*snapshot));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(*again, *snapshot);
  EXPECT_FALSE(nlohmann::json::parse(EncodeObject(VolumeSnapshot{}))["metadata"].contains(
      "ownerReferences"));
}

}  // namespace
}  // namespace kube
