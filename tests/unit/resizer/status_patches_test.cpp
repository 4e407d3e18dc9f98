// The strategic merge patches of one expansion (docs/resizer.md §4.4): which
// conditions each sets and drops, the states, the annotation, and which
// carry the resourceVersion precondition.
#include "resizer/status_patches.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "resizer/names.h"

namespace resizer {
namespace {

using Json = nlohmann::json;

const TimePoint kNow = TimePoint(std::chrono::seconds(1700000000));

kube::PersistentVolumeClaim ClaimWith(std::vector<kube::PersistentVolumeClaimCondition> conditions,
                                      bool not_required_annotation) {
  kube::PersistentVolumeClaim claim;
  claim.metadata.namespace_ = "ns";
  claim.metadata.name = "data";
  claim.metadata.resource_version = "42";
  claim.status.conditions = std::move(conditions);
  claim.status.allocated_storage_status = "ControllerResizeInProgress";
  if (not_required_annotation) {
    claim.metadata.annotations[std::string(kNodeExpansionNotRequiredAnnotation)] = "true";
  }
  return claim;
}

TEST(StatusPatchesTest, MarkResizingWithNewStateDropsOtherResizeConditionsAndTheAnnotation) {
  kube::PersistentVolumeClaim claim =
      ClaimWith({{"ControllerResizeError", "True"}, {"Other", "True"}}, true);
  Json patch = Json::parse(MarkResizingPatch(claim, {"2Gi", 2LL << 30}, true, kNow));
  EXPECT_EQ(patch["metadata"]["resourceVersion"], "42");
  EXPECT_TRUE(patch["metadata"]["annotations"]["volume.kubernetes.io/node-expansion-not-required"]
                  .is_null());
  EXPECT_EQ(patch["status"]["allocatedResources"]["storage"], "2Gi");
  EXPECT_EQ(patch["status"]["allocatedResourceStatuses"]["storage"], "ControllerResizeInProgress");
  const Json& conditions = patch["status"]["conditions"];
  ASSERT_EQ(conditions.size(), 2u);
  EXPECT_EQ(conditions[0]["type"], "Resizing");
  EXPECT_EQ(conditions[0]["status"], "True");
  EXPECT_EQ(conditions[0]["lastTransitionTime"], "2023-11-14T22:13:20Z");
  EXPECT_EQ(conditions[1], (Json{{"type", "ControllerResizeError"}, {"$patch", "delete"}}));
}

TEST(StatusPatchesTest, MarkResizingOfTheSameSizeKeepsConditionsAndState) {
  kube::PersistentVolumeClaim claim = ClaimWith({{"ControllerResizeError", "True"}}, false);
  Json patch = Json::parse(MarkResizingPatch(claim, {"2Gi", 2LL << 30}, false, kNow));
  EXPECT_FALSE(patch["status"].contains("allocatedResourceStatuses"));
  EXPECT_FALSE(patch["metadata"].contains("annotations"));
  ASSERT_EQ(patch["status"]["conditions"].size(), 1u);
  EXPECT_EQ(patch["status"]["conditions"][0]["type"], "Resizing");
}

TEST(StatusPatchesTest, InfeasibleErrorSetsStateAndConditionWithoutResourceVersion) {
  Json patch = Json::parse(MarkControllerErrorPatch(ClaimWith({}, false), "boom", true, kNow));
  EXPECT_FALSE(patch.contains("metadata"));
  EXPECT_EQ(patch["status"]["allocatedResourceStatuses"]["storage"], "ControllerResizeInfeasible");
  EXPECT_EQ(patch["status"]["conditions"][0]["type"], "ControllerResizeError");
  EXPECT_EQ(patch["status"]["conditions"][0]["message"], "failed to expand pvc with boom");
}

TEST(StatusPatchesTest, OtherFinalErrorSetsOnlyTheCondition) {
  Json patch = Json::parse(MarkControllerErrorPatch(ClaimWith({}, false), "boom", false, kNow));
  EXPECT_FALSE(patch["status"].contains("allocatedResourceStatuses"));
  EXPECT_EQ(patch["status"]["conditions"].size(), 1u);
}

TEST(StatusPatchesTest, NodePendingKeepsResizingNextToFileSystemResizePending) {
  kube::PersistentVolumeClaim claim = ClaimWith({{"Resizing", "True"}}, false);
  Json patch = Json::parse(MarkNodeExpansionPendingPatch(claim, kNow));
  EXPECT_EQ(patch["metadata"]["resourceVersion"], "42");
  EXPECT_EQ(patch["status"]["allocatedResourceStatuses"]["storage"], "NodeResizePending");
  ASSERT_EQ(patch["status"]["conditions"].size(), 1u);
  EXPECT_EQ(patch["status"]["conditions"][0]["type"], "FileSystemResizePending");
  EXPECT_EQ(patch["status"]["conditions"][0]["message"],
            "Waiting for user to (re-)start a pod to finish file system resize of volume on node.");
}

TEST(StatusPatchesTest, FinishedSetsCapacityDropsResizeStateAndAnnotatesNodeNotRequired) {
  kube::PersistentVolumeClaim claim = ClaimWith({{"Resizing", "True"}, {"Other", "False"}}, false);
  Json patch = Json::parse(MarkExpansionFinishedPatch(claim, "2Gi"));
  EXPECT_EQ(patch["metadata"]["resourceVersion"], "42");
  EXPECT_EQ(patch["metadata"]["annotations"]["volume.kubernetes.io/node-expansion-not-required"],
            "true");
  EXPECT_EQ(patch["status"]["capacity"]["storage"], "2Gi");
  EXPECT_TRUE(patch["status"]["allocatedResourceStatuses"]["storage"].is_null());
  EXPECT_EQ(patch["status"]["conditions"],
            (Json::array({{{"type", "Resizing"}, {"$patch", "delete"}}})));
}

TEST(StatusPatchesTest, VolumeCapacityRecordsThePreResizeCapacityOnlyWhenAsked) {
  const std::string old_capacity = "1Gi";
  Json with = Json::parse(VolumeCapacityPatch("2Gi", &old_capacity));
  EXPECT_EQ(with["spec"]["capacity"]["storage"], "2Gi");
  EXPECT_EQ(with["metadata"]["annotations"]["volume.alpha.kubernetes.io/pre-resize-capacity"],
            "1Gi");
  EXPECT_FALSE(Json::parse(VolumeCapacityPatch("2Gi", nullptr)).contains("metadata"));
}

}  // namespace
}  // namespace resizer
