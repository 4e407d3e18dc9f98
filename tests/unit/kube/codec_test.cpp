// Generic codec behaviour: metadata, errors, lists, Status.
#include "kube/api/codec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "kube/api/core/v1/event.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/csi_node.h"
#include "kube/api/storage/v1/volume_attachment.h"

namespace kube {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(ObjectMetaCodec, DecodesTheFieldsTheAttacherUsesAndIgnoresTheRest) {
  auto va = DecodeObject<VolumeAttachment>(R"json({
    "apiVersion": "storage.k8s.io/v1", "kind": "VolumeAttachment",
    "metadata": {
      "name": "csi-3f5a", "uid": "8c1d5c2e-1b7a-4c37-9a3e-0f6e2b1d9a11",
      "resourceVersion": "48213", "generation": 1,
      "creationTimestamp": "2024-05-01T10:00:00Z",
      "deletionTimestamp": "2024-05-01T11:00:00Z", "deletionGracePeriodSeconds": 0,
      "labels": {"app": "db", "tier": "storage"},
      "annotations": {"csi.alpha.kubernetes.io/node-id": "node-1"},
      "finalizers": ["external-attacher/hostpath-csi-k8s-io"],
      "ownerReferences": [{"apiVersion": "v1", "kind": "Node", "name": "node-1", "uid": "x"}],
      "managedFields": [{"manager": "kube-controller-manager", "operation": "Update",
                         "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:attacher": {}}}}]
    }})json");
  ASSERT_TRUE(va.ok()) << va.error().message;
  const ObjectMeta& meta = va->metadata;
  EXPECT_EQ(meta.name, "csi-3f5a");
  EXPECT_EQ(meta.namespace_, "");
  EXPECT_EQ(meta.uid, "8c1d5c2e-1b7a-4c37-9a3e-0f6e2b1d9a11");
  EXPECT_EQ(meta.resource_version, "48213");
  EXPECT_EQ(meta.creation_timestamp, "2024-05-01T10:00:00Z");
  EXPECT_EQ(meta.deletion_timestamp, "2024-05-01T11:00:00Z");
  EXPECT_EQ(meta.labels, (StringMap{{"app", "db"}, {"tier", "storage"}}));
  EXPECT_EQ(meta.annotations, (StringMap{{"csi.alpha.kubernetes.io/node-id", "node-1"}}));
  EXPECT_THAT(meta.finalizers, ::testing::ElementsAre("external-attacher/hostpath-csi-k8s-io"));
  EXPECT_TRUE(meta.has_finalizers_field);
}

TEST(ObjectMetaCodec, AbsentOrNullFinalizersDifferFromAnEmptyList) {
  auto absent = DecodeObject<PersistentVolume>(R"({"metadata": {"name": "pv"}})");
  auto null = DecodeObject<PersistentVolume>(R"({"metadata": {"finalizers": null}})");
  auto empty = DecodeObject<PersistentVolume>(R"({"metadata": {"finalizers": []}})");
  ASSERT_TRUE(absent.ok() && null.ok() && empty.ok());
  EXPECT_FALSE(absent->metadata.has_finalizers_field);
  EXPECT_FALSE(null->metadata.has_finalizers_field);
  EXPECT_TRUE(empty->metadata.has_finalizers_field);
  EXPECT_TRUE(empty->metadata.finalizers.empty());
}

TEST(ObjectMetaCodec, EncodingLeavesEmptyFieldsOutLikeGoOmitempty) {
  ObjectMeta meta;
  meta.name = "pv-1";
  meta.has_finalizers_field = true;  // an empty list is still not written
  EXPECT_EQ(nlohmann::json(meta), nlohmann::json::parse(R"({"name": "pv-1"})"));
}

TEST(ObjectMetaCodec, NullValuesInsideListsAndMapsDecodeAsEmptyStrings) {
  auto pv = DecodeObject<PersistentVolume>(
      R"({"metadata": {"labels": {"a": null}, "finalizers": [null, "f"]}})");
  ASSERT_TRUE(pv.ok()) << pv.error().message;
  EXPECT_EQ(pv->metadata.labels, (StringMap{{"a", ""}}));
  EXPECT_THAT(pv->metadata.finalizers, ::testing::ElementsAre("", "f"));
}

TEST(CodecErrors, WrongTypeNamesKindAndFieldPath) {
  auto va = DecodeObject<VolumeAttachment>(R"({"spec": {"attacher": 42}})");
  ASSERT_FALSE(va.ok());
  EXPECT_THAT(va.error().message,
              StartsWith("decoding VolumeAttachment: spec.attacher: type must be string"));
  EXPECT_THAT(va.error().message, HasSubstr("but is number"));
}

TEST(CodecErrors, PathIncludesArrayIndexAndMapKey) {
  auto meta = DecodeObject<PersistentVolume>(R"({"metadata": {"finalizers": ["a", 7]}})");
  ASSERT_FALSE(meta.ok());
  EXPECT_THAT(meta.error().message, HasSubstr("metadata.finalizers[1]: type must be string"));

  auto label = DecodeObject<PersistentVolume>(R"({"metadata": {"labels": {"zone": true}}})");
  ASSERT_FALSE(label.ok());
  EXPECT_THAT(label.error().message, HasSubstr("metadata.labels.zone: type must be string"));
}

TEST(CodecErrors, NestedTypeErrorNamesTheFullPath) {
  auto va = DecodeObject<VolumeAttachment>(R"json({"spec": {"source": {"inlineVolumeSpec": {
      "csi": {"driver": "d", "volumeHandle": "h",
              "controllerPublishSecretRef": {"name": "s", "namespace": ["ns"]}}}}}})json");
  ASSERT_FALSE(va.ok());
  EXPECT_EQ(va.error().message,
            "decoding VolumeAttachment: spec.source.inlineVolumeSpec.csi."
            "controllerPublishSecretRef.namespace: type must be string, but is array");
}

TEST(CodecErrors, ObjectFieldHoldingAScalarIsAnError) {
  auto va = DecodeObject<VolumeAttachment>(R"({"spec": "oops"})");
  ASSERT_FALSE(va.ok());
  EXPECT_EQ(va.error().message,
            "decoding VolumeAttachment: spec: type must be object, but is string");
}

TEST(CodecErrors, IntegersMustBeWholeAndInRange) {
  auto fraction = DecodeObject<Event>(R"({"count": 1.5})");
  ASSERT_FALSE(fraction.ok());
  EXPECT_THAT(fraction.error().message, HasSubstr("count: type must be integer"));

  auto too_big = DecodeObject<Event>(R"({"count": 4294967296})");
  ASSERT_FALSE(too_big.ok());
  EXPECT_THAT(too_big.error().message, HasSubstr("count: number 4294967296 out of range"));

  auto negative = DecodeObject<Event>(R"({"count": -2147483649})");
  ASSERT_FALSE(negative.ok());
  EXPECT_THAT(negative.error().message, HasSubstr("out of range"));
}

TEST(CodecErrors, GarbageAndTruncatedJsonAreErrors) {
  for (const char* text : {"", "garbage", "{\"metadata\": {\"name\": \"x\"", "{\"a\":}", "\xff\xfe",
                           "[1, 2", "{\"metadata\": {\"name\": \"unterminated}}"}) {
    auto va = DecodeObject<VolumeAttachment>(text);
    ASSERT_FALSE(va.ok()) << text;
    EXPECT_THAT(va.error().message, StartsWith("decoding VolumeAttachment: ")) << text;
    EXPECT_THAT(va.error().message, ::testing::Not(HasSubstr("[json.exception"))) << text;
  }
}

TEST(CodecErrors, TopLevelMustBeAnObject) {
  auto va = DecodeObject<VolumeAttachment>("[]");
  ASSERT_FALSE(va.ok());
  EXPECT_EQ(va.error().message, "decoding VolumeAttachment: type must be object, but is array");
}

TEST(CodecErrors, DeeplyNestedInputDoesNotCrash) {
  std::string deep(100000, '[');
  auto va = DecodeObject<VolumeAttachment>(deep);
  EXPECT_FALSE(va.ok());
}

TEST(ObjectFromJson, DecodesAnAlreadyParsedNode) {
  auto event = nlohmann::json::parse(
      R"({"type": "ADDED", "object": {"metadata": {"name": "node-1"},
          "spec": {"drivers": [{"name": "d", "nodeID": "n1"}]}}})");
  auto node = ObjectFromJson<CSINode>(event["object"]);
  ASSERT_TRUE(node.ok()) << node.error().message;
  EXPECT_EQ(node->metadata.name, "node-1");

  auto bad = ObjectFromJson<CSINode>(nlohmann::json::parse(R"({"spec": {"drivers": {}}})"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "decoding CSINode: spec.drivers: type must be array, but is object");
}

TEST(ListCodec, DecodesItemsAndPagingMetadata) {
  auto list = DecodeList<VolumeAttachment>(R"json({
    "apiVersion": "storage.k8s.io/v1", "kind": "VolumeAttachmentList",
    "metadata": {"resourceVersion": "99120", "continue": "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6OTkxMjAsInN0YXJ0IjoiY3NpLWIifQ",
                 "remainingItemCount": 1498},
    "items": [
      {"metadata": {"name": "csi-a", "resourceVersion": "99001"}, "spec": {"attacher": "d"}},
      {"metadata": {"name": "csi-b", "resourceVersion": "99002"}, "spec": {"attacher": "d"}}
    ]})json");
  ASSERT_TRUE(list.ok()) << list.error().message;
  EXPECT_EQ(list->metadata.resource_version, "99120");
  EXPECT_EQ(list->metadata.continue_token,
            "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6OTkxMjAsInN0YXJ0IjoiY3NpLWIifQ");
  EXPECT_EQ(list->metadata.remaining_item_count, 1498);
  ASSERT_EQ(list->items.size(), 2u);
  EXPECT_EQ(list->items[1].metadata.name, "csi-b");
}

TEST(ListCodec, LastPageHasNoContinueTokenOrCount) {
  auto list = DecodeList<PersistentVolume>(
      R"({"kind": "PersistentVolumeList", "metadata": {"resourceVersion": "7"}, "items": []})");
  ASSERT_TRUE(list.ok()) << list.error().message;
  EXPECT_EQ(list->metadata.continue_token, "");
  EXPECT_FALSE(list->metadata.remaining_item_count.has_value());
  EXPECT_TRUE(list->items.empty());
}

TEST(ListCodec, ItemErrorNamesListKindAndIndex) {
  auto list =
      DecodeList<VolumeAttachment>(R"({"items": [{"spec": {}}, {"status": {"attached": "yes"}}]})");
  ASSERT_FALSE(list.ok());
  EXPECT_EQ(list.error().message,
            "decoding VolumeAttachmentList: items[1].status.attached: type must be boolean, but "
            "is string");
}

TEST(StatusCodec, DecodesApiErrorBody) {
  auto status = DecodeObject<Status>(R"json({
    "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
    "message": "volumeattachments.storage.k8s.io \"csi-x\" not found", "reason": "NotFound",
    "details": {"name": "csi-x", "group": "storage.k8s.io", "kind": "volumeattachments"},
    "code": 404})json");
  ASSERT_TRUE(status.ok()) << status.error().message;
  EXPECT_EQ(status->code, 404);
  EXPECT_EQ(status->reason, "NotFound");
  EXPECT_EQ(status->message, "volumeattachments.storage.k8s.io \"csi-x\" not found");
}

TEST(StatusCodec, DecodesWatchErrorObject) {
  auto event = nlohmann::json::parse(R"json({"type": "ERROR", "object": {
    "kind": "Status", "apiVersion": "v1", "status": "Failure",
    "message": "too old resource version: 100 (2000)", "reason": "Expired", "code": 410}})json");
  auto status = StatusFromJson(event["object"]);
  ASSERT_TRUE(status.ok()) << status.error().message;
  EXPECT_EQ(status->code, 410);
  EXPECT_EQ(status->reason, "Expired");
}

TEST(StatusCodec, NonJsonBodyIsAnError) {
  auto status = DecodeObject<Status>("<html>502 Bad Gateway</html>");
  ASSERT_FALSE(status.ok());
  EXPECT_THAT(status.error().message, StartsWith("decoding Status: "));
}

TEST(StatusCodec, RoundTrips) {
  Status status{409, "Conflict", "the object has been modified"};
  auto decoded = DecodeObject<Status>(EncodeObject(status));
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(*decoded, status);
}

}  // namespace
}  // namespace kube
