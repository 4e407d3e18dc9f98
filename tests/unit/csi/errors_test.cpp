// BEHAVIOR.md §2 and §4: gRPC code names as upstream prints them in the
// grpc_status_code metric label and in error texts, and §5.3's final vs.
// maybe-in-progress classification of Publish/Unpublish failures.
#include "csi/errors.h"

#include <grpcpp/support/status.h>
#include <gtest/gtest.h>

namespace csi {
namespace {

TEST(CodeNameTest, MatchesGoCodeStrings) {
  EXPECT_EQ(CodeName(0), "OK");
  EXPECT_EQ(CodeName(1), "Canceled");
  EXPECT_EQ(CodeName(2), "Unknown");
  EXPECT_EQ(CodeName(3), "InvalidArgument");
  EXPECT_EQ(CodeName(4), "DeadlineExceeded");
  EXPECT_EQ(CodeName(5), "NotFound");
  EXPECT_EQ(CodeName(6), "AlreadyExists");
  EXPECT_EQ(CodeName(7), "PermissionDenied");
  EXPECT_EQ(CodeName(8), "ResourceExhausted");
  EXPECT_EQ(CodeName(9), "FailedPrecondition");
  EXPECT_EQ(CodeName(10), "Aborted");
  EXPECT_EQ(CodeName(11), "OutOfRange");
  EXPECT_EQ(CodeName(12), "Unimplemented");
  EXPECT_EQ(CodeName(13), "Internal");
  EXPECT_EQ(CodeName(14), "Unavailable");
  EXPECT_EQ(CodeName(15), "DataLoss");
  EXPECT_EQ(CodeName(16), "Unauthenticated");
  EXPECT_EQ(CodeName(17), "Code(17)");
  EXPECT_EQ(CodeName(kNonGrpcCode), "unknown-non-grpc");
}

TEST(ErrorFromStatusTest, ReadsLikeGoStatusError) {
  base::Error e = ErrorFromStatus(grpc::Status(grpc::StatusCode::INTERNAL, "disk on fire"));
  EXPECT_EQ(e.message, "rpc error: code = Internal desc = disk on fire");
  EXPECT_EQ(e.code, grpc::StatusCode::INTERNAL);
  EXPECT_TRUE(IsGrpcError(e));
}

TEST(ErrorFromStatusTest, ClientDeadlineReadsLikeGoContextError) {
  base::Error e =
      ErrorFromStatus(grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED, "Deadline Exceeded"));
  EXPECT_EQ(e.message, "rpc error: code = DeadlineExceeded desc = context deadline exceeded");
  // A driver's own text is kept.
  EXPECT_EQ(
      ErrorFromStatus(grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED, "slow array")).message,
      "rpc error: code = DeadlineExceeded desc = slow array");
}

TEST(IsGrpcErrorTest, NonGrpcAndContextWrapping) {
  EXPECT_FALSE(IsGrpcError(base::Error("driver name is empty", kNonGrpcCode)));
  EXPECT_FALSE(IsGrpcError(base::Error("no code")));
  base::Error wrapped = ErrorFromStatus(grpc::Status(grpc::StatusCode::ABORTED, "busy"))
                            .Wrap("failed to list volumes");
  EXPECT_TRUE(IsGrpcError(wrapped));
  EXPECT_EQ(wrapped.code, grpc::StatusCode::ABORTED);
}

TEST(IsFinalErrorTest, MaybeInProgressCodesAreNotFinal) {
  for (auto code : {grpc::StatusCode::CANCELLED, grpc::StatusCode::DEADLINE_EXCEEDED,
                    grpc::StatusCode::UNAVAILABLE, grpc::StatusCode::RESOURCE_EXHAUSTED,
                    grpc::StatusCode::ABORTED}) {
    EXPECT_FALSE(IsFinalError(ErrorFromStatus(grpc::Status(code, "x")))) << CodeName(code);
  }
  for (auto code :
       {grpc::StatusCode::UNKNOWN, grpc::StatusCode::INVALID_ARGUMENT, grpc::StatusCode::NOT_FOUND,
        grpc::StatusCode::ALREADY_EXISTS, grpc::StatusCode::PERMISSION_DENIED,
        grpc::StatusCode::FAILED_PRECONDITION, grpc::StatusCode::OUT_OF_RANGE,
        grpc::StatusCode::UNIMPLEMENTED, grpc::StatusCode::INTERNAL, grpc::StatusCode::DATA_LOSS,
        grpc::StatusCode::UNAUTHENTICATED}) {
    EXPECT_TRUE(IsFinalError(ErrorFromStatus(grpc::Status(code, "x")))) << CodeName(code);
  }
  EXPECT_TRUE(IsFinalError(base::Error("not from gRPC", kNonGrpcCode)));
}

}  // namespace
}  // namespace csi
