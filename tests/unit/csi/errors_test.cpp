// docs/attacher.md §2 and §4: gRPC code names as upstream prints them in the
// grpc_status_code metric label and in error texts; a failed call's error is
// a gRPC-domain error that no other layer's code is mistaken for.
#include "csi/errors.h"

#include <grpcpp/support/status.h>
#include <gtest/gtest.h>

#include "csi/final_error.h"

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
}

TEST(ErrorFromStatusTest, ReadsLikeGoStatusError) {
  base::Error e = ErrorFromStatus(grpc::Status(grpc::StatusCode::INTERNAL, "disk on fire"));
  EXPECT_EQ(e.message, "rpc error: code = Internal desc = disk on fire");
  EXPECT_EQ(e.code, grpc::StatusCode::INTERNAL);
  EXPECT_TRUE(e.IsGrpc());
  EXPECT_TRUE(IsGrpcCode(e, grpc::StatusCode::INTERNAL));
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

TEST(IsGrpcCodeTest, NonGrpcAndContextWrapping) {
  EXPECT_FALSE(base::Error("driver name is empty").IsGrpc());
  base::Error wrapped = ErrorFromStatus(grpc::Status(grpc::StatusCode::ABORTED, "busy"))
                            .Wrap("failed to list volumes");
  EXPECT_TRUE(wrapped.IsGrpc());
  EXPECT_EQ(wrapped.code, grpc::StatusCode::ABORTED);
  EXPECT_TRUE(IsGrpcCode(wrapped, grpc::StatusCode::ABORTED));
  EXPECT_FALSE(IsGrpcCode(wrapped, grpc::StatusCode::INTERNAL));
}

TEST(IsGrpcCodeTest, OtherDomainsNeverMatch) {
  // An API server's 404 is not NOT_FOUND (5), even with the same number.
  EXPECT_FALSE(IsGrpcCode(base::Error::Http(404, "not found"), grpc::StatusCode::NOT_FOUND));
  EXPECT_FALSE(IsGrpcCode(base::Error::Http(5, "odd status"), grpc::StatusCode::NOT_FOUND));
  EXPECT_FALSE(IsGrpcCode(base::Error::Transport("connection refused"), grpc::StatusCode::OK));
  EXPECT_FALSE(IsGrpcCode(base::Error::WithCode(2, "usage"), grpc::StatusCode::UNKNOWN));
}

// csi-lib-utils' IsFinalError: the codes of a call cut short or to retry
// are not final, every other code is; a failure without a gRPC status is not.
TEST(IsFinalErrorTest, OnlyCodesOfACallThatEndedAreFinal) {
  for (int code : {1, 4, 8, 10, 14}) {
    EXPECT_FALSE(IsFinalError(base::Error::Grpc(code, "x"))) << code;
  }
  for (int code : {2, 3, 5, 6, 7, 9, 11, 12, 13, 15, 16}) {
    EXPECT_TRUE(IsFinalError(base::Error::Grpc(code, "x"))) << code;
  }
  EXPECT_FALSE(IsFinalError(base::Error("driver name is empty")));
  EXPECT_FALSE(IsFinalError(base::Error::Http(500, "not a driver answer")));
  EXPECT_FALSE(IsFinalError(base::Error::Transport("connect timeout")));
}

}  // namespace
}  // namespace csi
