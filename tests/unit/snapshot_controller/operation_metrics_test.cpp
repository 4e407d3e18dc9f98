// OperationMetrics (docs/snapshots.md §4.6): names, labels, buckets, help
// prefix, the in-flight gauge and the cancel rule of a delete.
#include "snapshot_controller/operation_metrics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace snapshot_controller {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class OperationMetricsTest : public ::testing::Test {
 protected:
  metrics::Registry registry_;
  base::FakeClock clock_;
  OperationMetrics metrics_{registry_, clock_};
};

TEST_F(OperationMetricsTest, FamiliesCarryUpstreamNamesHelpAndInFlightStartsAtZero) {
  std::string text = registry_.Expose();
  EXPECT_THAT(text, HasSubstr("# HELP snapshot_controller_operations_in_flight [ALPHA] Total "
                              "number of operations in flight\n"));
  EXPECT_THAT(text, HasSubstr("snapshot_controller_operations_in_flight 0\n"));
  EXPECT_THAT(text, HasSubstr("process_start_time_seconds"));
}

TEST_F(OperationMetricsTest, RecordObservesTimeSinceFirstStartWithAllFourLabels) {
  metrics_.Start(kCreateSnapshotOperation, "uid-1", "hostpath.csi.k8s.io", SnapshotType::kDynamic);
  clock_.Advance(std::chrono::seconds(3));
  metrics_.Start(kCreateSnapshotOperation, "uid-1", "other", SnapshotType::kPreProvisioned);
  clock_.Advance(std::chrono::seconds(4));
  EXPECT_EQ(metrics_.InFlight(), 1u);
  metrics_.Record(kCreateSnapshotOperation, "uid-1", OperationStatus::kSuccess, "");

  std::string text = registry_.Expose();
  EXPECT_THAT(text, HasSubstr("# HELP snapshot_controller_operation_total_seconds [ALPHA] Total "
                              "number of seconds spent by the controller on an operation\n"));
  const std::string labels =
      "driver_name=\"hostpath.csi.k8s.io\",operation_name=\"CreateSnapshot\","
      "operation_status=\"success\",snapshot_type=\"dynamic\"";
  EXPECT_THAT(text, HasSubstr("snapshot_controller_operation_total_seconds_bucket{" + labels +
                              ",le=\"5\"} 0\n"));
  EXPECT_THAT(text, HasSubstr("snapshot_controller_operation_total_seconds_bucket{" + labels +
                              ",le=\"10\"} 1\n"));
  EXPECT_THAT(text,
              HasSubstr("snapshot_controller_operation_total_seconds_sum{" + labels + "} 7\n"));
  EXPECT_THAT(text, HasSubstr("le=\"600\""));
  EXPECT_THAT(text, HasSubstr("snapshot_controller_operations_in_flight 0\n"));
}

TEST_F(OperationMetricsTest, RecordWithoutStartObservesNothing) {
  metrics_.Record(kDeleteSnapshotOperation, "uid-1", OperationStatus::kSuccess, "d");
  EXPECT_THAT(registry_.Expose(), Not(HasSubstr("snapshot_controller_operation_total_seconds")));
}

TEST_F(OperationMetricsTest, UnknownDriverAtStartTakesTheDriverGivenToRecord) {
  metrics_.Start(kCreateSnapshotOperation, "uid-1", "", SnapshotType::kPreProvisioned);
  metrics_.Record(kCreateSnapshotOperation, "uid-1", OperationStatus::kSuccess, "d.example.com");
  EXPECT_THAT(registry_.Expose(),
              HasSubstr("driver_name=\"d.example.com\",operation_name=\"CreateSnapshot\","
                        "operation_status=\"success\",snapshot_type=\"pre-provisioned\""));
}

TEST_F(OperationMetricsTest, DriverUnknownEverywhereIsLabelledUnknown) {
  metrics_.Start(kCreateSnapshotOperation, "uid-1", "", SnapshotType::kDynamic);
  metrics_.Record(kCreateSnapshotOperation, "uid-1", OperationStatus::kUnknown, "unknown");
  EXPECT_THAT(registry_.Expose(),
              HasSubstr("driver_name=\"unknown\",operation_name=\"CreateSnapshot\","
                        "operation_status=\"unknown\""));
}

TEST_F(OperationMetricsTest, DeleteBeforeReadyRecordsPendingCreatesAsCancel) {
  metrics_.Start(kCreateSnapshotOperation, "uid-1", "d", SnapshotType::kDynamic);
  metrics_.Start(kCreateSnapshotAndReadyOperation, "uid-1", "d", SnapshotType::kDynamic);
  metrics_.Start(kCreateSnapshotAndReadyOperation, "uid-2", "d", SnapshotType::kDynamic);
  clock_.Advance(std::chrono::seconds(1));
  metrics_.Start(kDeleteSnapshotOperation, "uid-1", "d", SnapshotType::kDynamic);
  clock_.Advance(std::chrono::seconds(2));
  metrics_.Record(kDeleteSnapshotOperation, "uid-1", OperationStatus::kSuccess, "d");

  std::string text = registry_.Expose();
  for (std::string_view operation : {"CreateSnapshot", "CreateSnapshotAndReady"}) {
    EXPECT_THAT(text, HasSubstr("snapshot_controller_operation_total_seconds_sum{driver_name=\"d\","
                                "operation_name=\"" +
                                std::string(operation) +
                                "\",operation_status=\"cancel\",snapshot_type=\"dynamic\"} 2\n"));
  }
  EXPECT_THAT(text, HasSubstr("operation_name=\"DeleteSnapshot\",operation_status=\"success\""));
  EXPECT_EQ(metrics_.InFlight(), 1u);  // uid-2's create-and-ready still runs
  EXPECT_THAT(text, HasSubstr("snapshot_controller_operations_in_flight 1\n"));
}

TEST_F(OperationMetricsTest, DropForgetsWithoutObserving) {
  metrics_.Start(kCreateSnapshotOperation, "uid-1", "d", SnapshotType::kDynamic);
  metrics_.Drop(kCreateSnapshotOperation, "uid-1");
  metrics_.Record(kCreateSnapshotOperation, "uid-1", OperationStatus::kSuccess, "d");
  EXPECT_EQ(metrics_.InFlight(), 0u);
  EXPECT_THAT(registry_.Expose(), Not(HasSubstr("snapshot_controller_operation_total_seconds")));
}

}  // namespace
}  // namespace snapshot_controller
