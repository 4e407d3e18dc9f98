#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "kube/api/codec.h"
#include "kube/api/merge_patch.h"
#include "kube/api/storage/v1/volume_attachment.h"

namespace kube {
namespace {

using ::testing::ElementsAre;

// As `kubectl get volumeattachment -o json` shows one that failed to attach.
constexpr char kFailedAttachment[] = R"json({
  "apiVersion": "storage.k8s.io/v1",
  "kind": "VolumeAttachment",
  "metadata": {
    "annotations": {"csi.alpha.kubernetes.io/node-id": "node-1"},
    "creationTimestamp": "2024-05-01T10:00:00Z",
    "finalizers": ["external-attacher/hostpath-csi-k8s-io"],
    "managedFields": [
      {"apiVersion": "storage.k8s.io/v1", "fieldsType": "FieldsV1",
       "fieldsV1": {"f:spec": {"f:attacher": {}, "f:nodeName": {}, "f:source": {"f:persistentVolumeName": {}}}},
       "manager": "kube-controller-manager", "operation": "Update", "time": "2024-05-01T10:00:00Z"},
      {"apiVersion": "storage.k8s.io/v1", "fieldsType": "FieldsV1",
       "fieldsV1": {"f:status": {"f:attachError": {".": {}, "f:errorCode": {}, "f:message": {}, "f:time": {}}}},
       "manager": "csi-attacher", "operation": "Update", "subresource": "status",
       "time": "2024-05-01T10:00:05Z"}
    ],
    "name": "csi-9e1c0b2a4f6d8e7c5b3a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c",
    "resourceVersion": "1834",
    "uid": "6a7f3c1e-2d4b-4e8a-9c0f-1b2d3e4f5a6b"
  },
  "spec": {
    "attacher": "hostpath.csi.k8s.io",
    "nodeName": "node-1",
    "source": {"persistentVolumeName": "pvc-0b8f5d9e-3c2a-4f1b-8e7d-6c5b4a3f2e1d"}
  },
  "status": {
    "attached": false,
    "attachError": {
      "errorCode": 5,
      "message": "rpc error: code = NotFound desc = volume id 0b8f does not exist",
      "time": "2024-05-01T10:00:05Z"
    }
  }
})json";

TEST(VolumeAttachmentCodec, DecodesSpecAndAttachErrorWithErrorCode) {
  auto va = DecodeObject<VolumeAttachment>(kFailedAttachment);
  ASSERT_TRUE(va.ok()) << va.error().message;
  EXPECT_EQ(va->spec.attacher, "hostpath.csi.k8s.io");
  EXPECT_EQ(va->spec.node_name, "node-1");
  EXPECT_EQ(va->spec.source.persistent_volume_name, "pvc-0b8f5d9e-3c2a-4f1b-8e7d-6c5b4a3f2e1d");
  EXPECT_EQ(va->spec.source.inline_volume_spec, nullptr);
  EXPECT_FALSE(va->status.attached);
  ASSERT_TRUE(va->status.attach_error.has_value());
  EXPECT_EQ(va->status.attach_error->error_code, 5);
  EXPECT_EQ(va->status.attach_error->message,
            "rpc error: code = NotFound desc = volume id 0b8f does not exist");
  EXPECT_EQ(va->status.attach_error->time, "2024-05-01T10:00:05Z");
  EXPECT_FALSE(va->status.detach_error.has_value());
}

TEST(VolumeAttachmentCodec, RoundTripsThroughEncode) {
  auto va = DecodeObject<VolumeAttachment>(kFailedAttachment);
  ASSERT_TRUE(va.ok()) << va.error().message;
  std::string encoded = EncodeObject(*va);
  auto again = DecodeObject<VolumeAttachment>(encoded);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(*again, *va);

  auto j = nlohmann::json::parse(encoded);
  EXPECT_EQ(j["apiVersion"], "storage.k8s.io/v1");
  EXPECT_EQ(j["kind"], "VolumeAttachment");
  EXPECT_FALSE(j["metadata"].contains("managedFields"));
}

TEST(VolumeAttachmentCodec, AttachedSuccessWithMetadataAndDetachError) {
  auto va = DecodeObject<VolumeAttachment>(R"json({
    "metadata": {"name": "csi-1", "deletionTimestamp": "2024-05-02T08:00:00Z"},
    "spec": {"attacher": "ebs.csi.aws.com", "nodeName": "ip-10-0-1-5",
             "source": {"persistentVolumeName": "pv-1"}},
    "status": {"attached": true,
               "attachmentMetadata": {"devicePath": "/dev/xvdaa"},
               "detachError": {"message": "rpc error: code = Internal", "time": "2024-05-02T08:00:01Z"}}
  })json");
  ASSERT_TRUE(va.ok()) << va.error().message;
  EXPECT_TRUE(va->status.attached);
  EXPECT_EQ(va->status.attachment_metadata, (StringMap{{"devicePath", "/dev/xvdaa"}}));
  ASSERT_TRUE(va->status.detach_error.has_value());
  EXPECT_FALSE(va->status.detach_error->error_code.has_value());
  EXPECT_EQ(va->status.detach_error->message, "rpc error: code = Internal");
}

TEST(VolumeAttachmentCodec, DecodesInlineVolumeSpec) {
  auto va = DecodeObject<VolumeAttachment>(R"json({
    "metadata": {"name": "csi-inline"},
    "spec": {"attacher": "pd.csi.storage.gke.io", "nodeName": "gke-node-1",
             "source": {"inlineVolumeSpec": {
               "accessModes": ["ReadWriteOnce"], "volumeMode": "Filesystem",
               "csi": {"driver": "pd.csi.storage.gke.io",
                       "volumeHandle": "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/data",
                       "fsType": "ext4", "volumeAttributes": {"partition": ""}}}}}
  })json");
  ASSERT_TRUE(va.ok()) << va.error().message;
  EXPECT_FALSE(va->spec.source.persistent_volume_name.has_value());
  ASSERT_NE(va->spec.source.inline_volume_spec, nullptr);
  const PersistentVolumeSpec& spec = *va->spec.source.inline_volume_spec;
  EXPECT_THAT(spec.access_modes, ElementsAre("ReadWriteOnce"));
  const auto* csi = std::get_if<CSIPersistentVolumeSource>(&spec.source);
  ASSERT_NE(csi, nullptr);
  EXPECT_EQ(csi->volume_handle, "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/data");
  EXPECT_EQ(csi->volume_attributes, (StringMap{{"partition", ""}}));

  auto again = DecodeObject<VolumeAttachment>(EncodeObject(*va));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(*again, *va);
}

TEST(VolumeAttachmentCodec, EqualityComparesInlineSpecsByValue) {
  VolumeAttachment a;
  auto spec = std::make_shared<PersistentVolumeSpec>();
  spec->volume_mode = "Block";
  a.spec.source.inline_volume_spec = spec;
  VolumeAttachment b = a;
  b.spec.source.inline_volume_spec = std::make_shared<PersistentVolumeSpec>(*spec);
  EXPECT_EQ(a, b);
  auto other = std::make_shared<PersistentVolumeSpec>();
  b.spec.source.inline_volume_spec = other;
  EXPECT_NE(a, b);
  b.spec.source.inline_volume_spec = nullptr;
  EXPECT_NE(a, b);
}

TEST(VolumeAttachmentCodec, ErrorCodeOfWrongTypeNamesThePath) {
  auto va = DecodeObject<VolumeAttachment>(
      R"({"status": {"attachError": {"message": "x", "errorCode": "5"}}})");
  ASSERT_FALSE(va.ok());
  EXPECT_EQ(va.error().message,
            "decoding VolumeAttachment: status.attachError.errorCode: type must be integer, but "
            "is string");
}

// The attacher computes its status patches as CreateMergePatch(json(old),
// json(new)); these are the bodies upstream sends (docs/attacher.md §5.3, §5.4).
TEST(VolumeAttachmentCodec, MarkAttachedMergePatchClearsAttachError) {
  auto old_va = DecodeObject<VolumeAttachment>(kFailedAttachment);
  ASSERT_TRUE(old_va.ok());
  VolumeAttachment new_va = *old_va;
  new_va.status.attached = true;
  new_va.status.attachment_metadata = {{"devicePath", "/dev/sdb"}};
  new_va.status.attach_error.reset();
  EXPECT_EQ(CreateMergePatch(nlohmann::json(*old_va), nlohmann::json(new_va)),
            nlohmann::json::parse(R"({"status": {"attached": true,
                                      "attachmentMetadata": {"devicePath": "/dev/sdb"},
                                      "attachError": null}})"));
}

TEST(VolumeAttachmentCodec, RemovingSoleFinalizerPatchesFinalizersToNull) {
  auto old_va = DecodeObject<VolumeAttachment>(kFailedAttachment);
  ASSERT_TRUE(old_va.ok());
  VolumeAttachment new_va = *old_va;
  new_va.metadata.finalizers.clear();
  EXPECT_EQ(CreateMergePatch(nlohmann::json(*old_va), nlohmann::json(new_va)),
            nlohmann::json::parse(R"({"metadata": {"finalizers": null}})"));
}

TEST(VolumeAttachmentCodec, MarkDetachedWritesAttachedFalseAndNullsMetadata) {
  VolumeAttachment old_va;
  old_va.status.attached = true;
  old_va.status.attachment_metadata = {{"devicePath", "/dev/sdb"}};
  VolumeAttachment new_va = old_va;
  new_va.status = VolumeAttachmentStatus();
  EXPECT_EQ(
      CreateMergePatch(nlohmann::json(old_va), nlohmann::json(new_va)),
      nlohmann::json::parse(R"({"status": {"attached": false, "attachmentMetadata": null}})"));
}

// Caches hold 20,000+ VolumeAttachments, nearly all without errors: the two
// errors cost a pointer each, not a VolumeError each.
TEST(VolumeAttachmentCodec, StatusHoldsNoErrorInline) {
  EXPECT_LT(sizeof(VolumeAttachmentStatus), sizeof(VolumeError));
}

// The attacher and node name repeat across the cache: a pointer each
// (interned), next to the source's optional PV name (40) and inline-spec
// pointer (16).
TEST(VolumeAttachmentCodec, SpecHoldsTheRepeatedNamesAsPointers) {
  EXPECT_LE(sizeof(VolumeAttachmentSpec), 72u);
}

}  // namespace
}  // namespace kube
