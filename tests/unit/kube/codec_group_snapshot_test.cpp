// VolumeGroupSnapshot, VolumeGroupSnapshotContent and VolumeGroupSnapshotClass
// codecs (groupsnapshot.storage.k8s.io/v1, docs/snapshots.md §2): the objects
// as the API server serves them, the two content sources, the member info
// list, and the matchLabels query a group's selector lists PVCs with.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "kube/api/codec.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_class.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/label_selector.h"
#include "kube/api/resource.h"

namespace kube {
namespace {

TEST(VolumeGroupSnapshotCodec, DecodesSelectorSourceAndStatus) {
  auto group = DecodeObject<VolumeGroupSnapshot>(R"json({
    "apiVersion": "groupsnapshot.storage.k8s.io/v1", "kind": "VolumeGroupSnapshot",
    "metadata": {"name": "group-1", "namespace": "default", "uid": "7a2b"},
    "spec": {"volumeGroupSnapshotClassName": "group-class",
             "source": {"selector": {"matchLabels": {"app": "db", "tier": "data"},
                                     "matchExpressions": [{"key": "zone", "operator": "In",
                                                           "values": ["a", "b"]}]}}},
    "status": {"boundVolumeGroupSnapshotContentName": "groupsnapcontent-7a2b",
               "creationTime": "2026-11-24T04:00:00Z", "readyToUse": false,
               "error": {"message": "not yet"}}})json");
  ASSERT_TRUE(group.ok()) << group.error().message;
  ASSERT_TRUE(group->spec.source.selector.has_value());
  EXPECT_FALSE(group->spec.source.volume_group_snapshot_content_name.has_value());
  EXPECT_EQ(group->spec.source.selector->match_labels.size(), 2u);
  ASSERT_EQ(group->spec.source.selector->match_expressions.size(), 1u);
  EXPECT_EQ(group->spec.source.selector->match_expressions[0].operator_, "In");
  EXPECT_THAT(group->spec.source.selector->match_expressions[0].values,
              testing::ElementsAre("a", "b"));
  ASSERT_TRUE(group->status.has_value());
  EXPECT_EQ(group->status->bound_volume_group_snapshot_content_name, "groupsnapcontent-7a2b");
  EXPECT_EQ(group->status->ready_to_use, false);
  ASSERT_TRUE(group->status->error.has_value());
  EXPECT_EQ(group->status->error->message, "not yet");

  auto again = DecodeObject<VolumeGroupSnapshot>(EncodeObject(*group));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(*again, *group);
}

TEST(VolumeGroupSnapshotCodec, PreProvisionedSourceHasNoSelector) {
  auto group = DecodeObject<VolumeGroupSnapshot>(R"json({
    "metadata": {"name": "g", "namespace": "ns"},
    "spec": {"source": {"volumeGroupSnapshotContentName": "pre-1"}}})json");
  ASSERT_TRUE(group.ok()) << group.error().message;
  EXPECT_FALSE(group->spec.source.selector.has_value());
  EXPECT_EQ(group->spec.source.volume_group_snapshot_content_name, "pre-1");
  EXPECT_FALSE(group->status.has_value());
  EXPECT_EQ(ResourcePath<VolumeGroupSnapshot>("ns", "g"),
            "/apis/groupsnapshot.storage.k8s.io/v1/namespaces/ns/volumegroupsnapshots/g");
}

TEST(VolumeGroupSnapshotContentCodec, DecodesDynamicContentWithMemberInfoList) {
  auto content = DecodeObject<VolumeGroupSnapshotContent>(R"json({
    "apiVersion": "groupsnapshot.storage.k8s.io/v1", "kind": "VolumeGroupSnapshotContent",
    "metadata": {"name": "groupsnapcontent-7a2b",
                 "finalizers": ["groupsnapshot.storage.kubernetes.io/volumegroupsnapshotcontent-bound-protection"]},
    "spec": {"deletionPolicy": "Delete", "driver": "fault.csi.example.com",
             "volumeGroupSnapshotClassName": "group-class",
             "source": {"volumeHandles": ["vol-1", "vol-2"]},
             "volumeGroupSnapshotRef": {"name": "group-1", "namespace": "default", "uid": "7a2b"}},
    "status": {"volumeGroupSnapshotHandle": "group-handle", "readyToUse": true,
               "creationTime": "2026-11-24T04:00:00Z",
               "volumeSnapshotInfoList": [
                 {"volumeHandle": "vol-1", "snapshotHandle": "s-1", "readyToUse": true,
                  "creationTime": 1732425600123456789, "restoreSize": 1073741824},
                 {"volumeHandle": "vol-2", "snapshotHandle": "s-2", "readyToUse": false}]}})json");
  ASSERT_TRUE(content.ok()) << content.error().message;
  EXPECT_THAT(content->spec.source.volume_handles, testing::ElementsAre("vol-1", "vol-2"));
  EXPECT_FALSE(content->spec.source.group_snapshot_handles.has_value());
  EXPECT_EQ(content->spec.volume_group_snapshot_ref.uid, "7a2b");
  ASSERT_TRUE(content->status.has_value());
  EXPECT_EQ(content->status->volume_group_snapshot_handle, "group-handle");
  ASSERT_EQ(content->status->volume_snapshot_info_list.size(), 2u);
  const auto& first = content->status->volume_snapshot_info_list[0];
  EXPECT_EQ(first.snapshot_handle, "s-1");
  EXPECT_EQ(first.creation_time, 1732425600123456789);
  EXPECT_EQ(first.restore_size, 1073741824);
  EXPECT_FALSE(content->status->volume_snapshot_info_list[1].restore_size.has_value());

  auto again = DecodeObject<VolumeGroupSnapshotContent>(EncodeObject(*content));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(*again, *content);
  EXPECT_EQ(ResourcePath<VolumeGroupSnapshotContent>("", "c"),
            "/apis/groupsnapshot.storage.k8s.io/v1/volumegroupsnapshotcontents/c");
}

TEST(VolumeGroupSnapshotContentCodec, PreProvisionedHandlesAreWrittenEvenWhenEmpty) {
  VolumeGroupSnapshotContentSource source;
  source.group_snapshot_handles = GroupSnapshotHandles{.volume_group_snapshot_handle = "gh"};
  // Both fields are required by the CRD once groupSnapshotHandles is set.
  EXPECT_EQ(nlohmann::json::parse(nlohmann::json(source).dump()),
            nlohmann::json::parse(
                R"({"groupSnapshotHandles": {"volumeGroupSnapshotHandle": "gh",
                                             "volumeSnapshotHandles": []}})"));
}

TEST(VolumeGroupSnapshotClassCodec, DecodesTopLevelFields) {
  auto cls = DecodeObject<VolumeGroupSnapshotClass>(R"json({
    "apiVersion": "groupsnapshot.storage.k8s.io/v1", "kind": "VolumeGroupSnapshotClass",
    "metadata": {"name": "group-class",
                 "annotations": {"groupsnapshot.storage.kubernetes.io/is-default-class": "true"}},
    "driver": "fault.csi.example.com", "deletionPolicy": "Retain",
    "parameters": {"csi.storage.k8s.io/group-snapshotter-secret-name": "s"}})json");
  ASSERT_TRUE(cls.ok()) << cls.error().message;
  EXPECT_EQ(cls->driver, "fault.csi.example.com");
  EXPECT_EQ(cls->deletion_policy, "Retain");
  EXPECT_EQ(cls->metadata.annotations.find(kIsDefaultGroupSnapshotClassAnnotation)->second, "true");
  EXPECT_EQ(ResourcePath<VolumeGroupSnapshotClass>("", "group-class"),
            "/apis/groupsnapshot.storage.k8s.io/v1/volumegroupsnapshotclasses/group-class");
}

TEST(LabelSelectorQuery, MatchLabelsJoinInKeyOrderAndEmptySelectsAll) {
  LabelSelector selector{.match_labels = {{"tier", "data"}, {"app", "db"}}};
  EXPECT_EQ(MatchLabelsQuery(selector), "app=db,tier=data");
  EXPECT_EQ(MatchLabelsQuery(LabelSelector{}), "");
}

// As metav1.FormatLabelSelector words a selector in messages (§4.7).
TEST(LabelSelectorFormat, RequirementsSortedByKeyInGosWords) {
  LabelSelector selector{
      .match_labels = {{"tier", "data"}},
      .match_expressions = {{.key = "zone", .operator_ = "NotIn", .values = {"b", "a"}},
                            {.key = "app", .operator_ = "In", .values = {"db"}},
                            {.key = "env", .operator_ = "Exists"},
                            {.key = "legacy", .operator_ = "DoesNotExist"}}};
  EXPECT_EQ(FormatLabelSelector(selector), "app in (db),env,!legacy,tier=data,zone notin (a,b)");
  EXPECT_EQ(FormatLabelSelector(LabelSelector{.match_labels = {{"app", "db"}}}), "app=db");
}

TEST(LabelSelectorFormat, EmptyIsNoneAndABadRequirementIsError) {
  EXPECT_EQ(FormatLabelSelector(LabelSelector{}), "<none>");
  EXPECT_EQ(
      FormatLabelSelector(LabelSelector{.match_expressions = {{.key = "app", .operator_ = "In"}}}),
      "<error>");
  EXPECT_EQ(FormatLabelSelector(
                LabelSelector{.match_expressions = {{.key = "app", .operator_ = "Matches"}}}),
            "<error>");
}

}  // namespace
}  // namespace kube
