// Which claim updates queue a sync (docs/resizer.md §4.1), the names a
// drop-in must spell as upstream, and the gRPC error classes of §4.4 step 5.
#include <grpcpp/support/status.h>
#include <gtest/gtest.h>

#include "resizer/grpc_error_kinds.h"
#include "resizer/names.h"
#include "resizer/resize_controller.h"

namespace resizer {
namespace {

kube::PersistentVolumeClaim BaseClaim() {
  kube::PersistentVolumeClaim claim;
  claim.metadata.resource_version = "1";
  claim.spec.requests_storage = "1Gi";
  claim.status.capacity_storage = "1Gi";
  return claim;
}

TEST(ClaimUpdateTest, RequestChangeQueues) {
  kube::PersistentVolumeClaim changed = BaseClaim();
  changed.spec.requests_storage = "2Gi";
  EXPECT_TRUE(ClaimUpdateNeedsSync(BaseClaim(), changed));
}

TEST(ClaimUpdateTest, SameRequestWrittenDifferentlyDoesNotQueue) {
  kube::PersistentVolumeClaim changed = BaseClaim();
  changed.spec.requests_storage = "1024Mi";
  EXPECT_FALSE(ClaimUpdateNeedsSync(BaseClaim(), changed));
}

TEST(ClaimUpdateTest, StorageResizerAnnotationChangeQueues) {
  kube::PersistentVolumeClaim changed = BaseClaim();
  changed.metadata.annotations[std::string(kStorageResizerAnnotation)] = "driver";
  EXPECT_TRUE(ClaimUpdateNeedsSync(BaseClaim(), changed));
}

TEST(ClaimUpdateTest, CapacityGrowthQueuesButShrinkDoesNot) {
  kube::PersistentVolumeClaim grown = BaseClaim();
  grown.status.capacity_storage = "2Gi";
  EXPECT_TRUE(ClaimUpdateNeedsSync(BaseClaim(), grown));
  EXPECT_FALSE(ClaimUpdateNeedsSync(grown, BaseClaim()));
}

TEST(ClaimUpdateTest, AllocatedStatusChangeQueues) {
  kube::PersistentVolumeClaim changed = BaseClaim();
  changed.status.allocated_storage_status = "NodeResizePending";
  EXPECT_TRUE(ClaimUpdateNeedsSync(BaseClaim(), changed));
}

TEST(ClaimUpdateTest, LabelsAndConditionsAloneDoNotQueue) {
  kube::PersistentVolumeClaim changed = BaseClaim();
  changed.metadata.labels["app"] = "db";
  changed.status.conditions.push_back({"Resizing", "True"});
  EXPECT_FALSE(ClaimUpdateNeedsSync(BaseClaim(), changed));
}

TEST(ResizerNamesTest, LeaseAndQueueAreUpstreams) {
  EXPECT_EQ(LeaseNameFor("hostpath.csi.k8s.io"), "external-resizer-hostpath-csi-k8s-io");
  EXPECT_EQ(LeaseNameFor("driver_"), "external-resizer-driver-X");
  EXPECT_EQ(QueueNameFor("hostpath.csi.k8s.io"), "hostpath.csi.k8s.io-pvc");
}

TEST(GrpcErrorKindTest, ClassesCodesAsUpstream) {
  EXPECT_EQ(KindOf(base::Error("not grpc")), GrpcErrorKind::kInProgress);
  EXPECT_EQ(KindOf(base::Error::Grpc(grpc::StatusCode::DEADLINE_EXCEEDED, "t")),
            GrpcErrorKind::kInProgress);
  EXPECT_EQ(KindOf(base::Error::Grpc(grpc::StatusCode::ABORTED, "a")), GrpcErrorKind::kInProgress);
  EXPECT_EQ(KindOf(base::Error::Grpc(grpc::StatusCode::OUT_OF_RANGE, "o")),
            GrpcErrorKind::kInfeasible);
  EXPECT_EQ(KindOf(base::Error::Grpc(grpc::StatusCode::NOT_FOUND, "n")),
            GrpcErrorKind::kInfeasible);
  EXPECT_EQ(KindOf(base::Error::Grpc(grpc::StatusCode::INTERNAL, "i")), GrpcErrorKind::kFinal);
  EXPECT_EQ(KindOf(base::Error::Grpc(grpc::StatusCode::FAILED_PRECONDITION, "f")),
            GrpcErrorKind::kFinal);
}

}  // namespace
}  // namespace resizer
