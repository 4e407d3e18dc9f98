// PersistentVolumeClaim codec: a bound claim as the API server serves it, a
// claim restored from a VolumeSnapshot, the unset-vs-empty class name, and
// the status an expansion and a modification record.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "kube/api/codec.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/resource.h"

namespace kube {
namespace {

using ::testing::ElementsAre;

TEST(PersistentVolumeClaimCodec, DecodesBoundClaimAndRoundTrips) {
  auto pvc = DecodeObject<PersistentVolumeClaim>(R"json({
    "apiVersion": "v1", "kind": "PersistentVolumeClaim",
    "metadata": {"name": "data-db-0", "namespace": "prod", "uid": "0b8f",
                 "finalizers": ["kubernetes.io/pvc-protection"]},
    "spec": {"accessModes": ["ReadWriteOnce", "ReadOnlyMany"],
             "resources": {"requests": {"storage": "10Gi"}, "limits": {"storage": "20Gi"}},
             "storageClassName": "gp3", "volumeMode": "Block",
             "volumeName": "pvc-0b8f"},
    "status": {"phase": "Bound", "accessModes": ["ReadWriteOnce"],
               "capacity": {"storage": "10Gi"}}})json");
  ASSERT_TRUE(pvc.ok()) << pvc.error().message;
  EXPECT_THAT(pvc->spec.access_modes, ElementsAre("ReadWriteOnce", "ReadOnlyMany"));
  EXPECT_EQ(pvc->spec.requests_storage, "10Gi");
  EXPECT_EQ(pvc->spec.storage_class_name, "gp3");
  EXPECT_EQ(pvc->spec.volume_mode, "Block");
  EXPECT_EQ(pvc->spec.volume_name, "pvc-0b8f");
  EXPECT_FALSE(pvc->spec.data_source.has_value());
  EXPECT_EQ(pvc->status.phase, "Bound");
  EXPECT_EQ(ResourcePath<PersistentVolumeClaim>("prod", "data-db-0"),
            "/api/v1/namespaces/prod/persistentvolumeclaims/data-db-0");

  auto again = DecodeObject<PersistentVolumeClaim>(EncodeObject(*pvc));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(*again, *pvc);
}

TEST(PersistentVolumeClaimCodec, ResizeAndModifyStatusDecodeAndRoundTrip) {
  auto pvc = DecodeObject<PersistentVolumeClaim>(R"json({
    "metadata": {"name": "growing", "namespace": "default"},
    "spec": {"resources": {"requests": {"storage": "2Gi"}}, "volumeName": "pv-1",
             "volumeAttributesClassName": "gold"},
    "status": {"phase": "Bound", "capacity": {"storage": "1Gi"},
               "allocatedResources": {"storage": "2Gi"},
               "allocatedResourceStatuses": {"storage": "ControllerResizeInProgress"},
               "currentVolumeAttributesClassName": "silver",
               "modifyVolumeStatus": {"targetVolumeAttributesClassName": "gold",
                                      "status": "InProgress"},
               "conditions": [{"type": "Resizing", "status": "True",
                               "lastTransitionTime": "2026-11-30T12:00:00Z"}]}})json");
  ASSERT_TRUE(pvc.ok()) << pvc.error().message;
  EXPECT_EQ(pvc->status.capacity_storage, "1Gi");
  EXPECT_EQ(pvc->status.allocated_storage, "2Gi");
  EXPECT_EQ(pvc->status.allocated_storage_status, "ControllerResizeInProgress");
  EXPECT_EQ(pvc->status.current_volume_attributes_class_name, "silver");
  ASSERT_TRUE(pvc->status.modify_volume_status.has_value());
  EXPECT_EQ(pvc->status.modify_volume_status->target_volume_attributes_class_name, "gold");
  EXPECT_EQ(pvc->status.modify_volume_status->status, "InProgress");
  EXPECT_TRUE(pvc->HasTrueCondition("Resizing"));
  EXPECT_FALSE(pvc->HasTrueCondition("FileSystemResizePending"));
  ASSERT_NE(pvc->FindCondition("Resizing"), nullptr);
  EXPECT_EQ(pvc->FindCondition("Resizing")->last_transition_time, "2026-11-30T12:00:00Z");

  auto again = DecodeObject<PersistentVolumeClaim>(EncodeObject(*pvc));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(*again, *pvc);
}

TEST(PersistentVolumeClaimCodec, AClaimWithoutResizeStatusHasNone) {
  auto pvc = DecodeObject<PersistentVolumeClaim>(
      R"json({"metadata": {"name": "c"}, "status": {"phase": "Bound"}})json");
  ASSERT_TRUE(pvc.ok()) << pvc.error().message;
  EXPECT_TRUE(pvc->status.allocated_storage.empty());
  EXPECT_FALSE(pvc->status.modify_volume_status.has_value());
  EXPECT_TRUE(pvc->status.conditions.empty());
  EXPECT_EQ(pvc->FindCondition("Resizing"), nullptr);
  EXPECT_EQ(EncodeObject(*pvc).find("allocatedResources"), std::string::npos);
}

TEST(PersistentVolumeClaimCodec, DataSourceNamesTheVolumeSnapshotToRestore) {
  auto pvc = DecodeObject<PersistentVolumeClaim>(R"json({
    "metadata": {"name": "restored", "namespace": "default"},
    "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}},
             "dataSource": {"apiGroup": "snapshot.storage.k8s.io", "kind": "VolumeSnapshot",
                            "name": "snap-1"}},
    "status": {"phase": "Pending"}})json");
  ASSERT_TRUE(pvc.ok()) << pvc.error().message;
  ASSERT_TRUE(pvc->spec.data_source.has_value());
  EXPECT_EQ(pvc->spec.data_source->api_group, "snapshot.storage.k8s.io");
  EXPECT_EQ(pvc->spec.data_source->kind, "VolumeSnapshot");
  EXPECT_EQ(pvc->spec.data_source->name, "snap-1");
  EXPECT_EQ(pvc->status.phase, "Pending");
}

TEST(PersistentVolumeClaimCodec, UnsetAndEmptyStorageClassStayDistinct) {
  auto unset = DecodeObject<PersistentVolumeClaim>(R"json({"metadata": {"name": "a"}})json");
  ASSERT_TRUE(unset.ok()) << unset.error().message;
  EXPECT_FALSE(unset->spec.storage_class_name.has_value());

  auto empty = DecodeObject<PersistentVolumeClaim>(
      R"json({"metadata": {"name": "b"}, "spec": {"storageClassName": ""}})json");
  ASSERT_TRUE(empty.ok()) << empty.error().message;
  EXPECT_EQ(empty->spec.storage_class_name, "");
}

TEST(PersistentVolumeClaimCodec, EncodesTheShapeTheApiServerAccepts) {
  PersistentVolumeClaim pvc;
  pvc.metadata.name = "pvc-1";
  pvc.metadata.namespace_ = "default";
  pvc.spec.access_modes = {"ReadWriteOnce"};
  pvc.spec.requests_storage = "1Gi";
  pvc.spec.storage_class_name = "";
  pvc.spec.volume_name = "pv-1";
  pvc.spec.data_source = TypedLocalObjectReference{.kind = "PersistentVolumeClaim", .name = "src"};

  nlohmann::json json = nlohmann::json::parse(EncodeObject(pvc));
  EXPECT_EQ(json["apiVersion"], "v1");
  EXPECT_EQ(json["kind"], "PersistentVolumeClaim");
  EXPECT_EQ(json["spec"], nlohmann::json::parse(R"({
    "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}},
    "volumeName": "pv-1", "storageClassName": "",
    "dataSource": {"kind": "PersistentVolumeClaim", "name": "src"}})"));
  EXPECT_EQ(json.count("status"), 0u) << "a zero status is left out";
}

}  // namespace
}  // namespace kube
