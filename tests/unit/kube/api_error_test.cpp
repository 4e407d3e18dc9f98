// kube::Client's error classes match only the API server's answers (HTTP
// statuses) and transport failures, never a CSI driver's gRPC codes.
#include "kube/client/api_error.h"

#include <gtest/gtest.h>

namespace kube {
namespace {

TEST(ApiErrorTest, HttpStatusesAreClassified) {
  EXPECT_TRUE(IsNotFound(base::Error::Http(404, "not found")));
  EXPECT_TRUE(IsConflict(base::Error::Http(409, "conflict")));
  EXPECT_TRUE(IsGone(base::Error::Http(410, "too old resource version")));
  EXPECT_TRUE(IsForbidden(base::Error::Http(403, "forbidden")));
  EXPECT_TRUE(IsTooManyRequests(base::Error::Http(429, "slow down")));
  EXPECT_TRUE(IsInvalid(base::Error::Http(422, "the server rejected our request")));
  EXPECT_FALSE(IsInvalid(base::Error::Grpc(3, "rpc error: code = InvalidArgument desc = x")));
  EXPECT_FALSE(IsNotFound(base::Error::Http(409, "conflict")));
}

TEST(ApiErrorTest, GrpcCodesAreNotHttpStatuses) {
  // gRPC NOT_FOUND is 5; a code that happened to equal an HTTP status still
  // belongs to the driver.
  EXPECT_FALSE(IsNotFound(base::Error::Grpc(5, "rpc error: code = NotFound desc = x")));
  EXPECT_FALSE(IsNotFound(base::Error::Grpc(404, "rpc error: code = Code(404) desc = x")));
  EXPECT_FALSE(IsTransportError(base::Error::Grpc(14, "rpc error: code = Unavailable desc = x")));
}

TEST(ApiErrorTest, TransportFailureIsNoHttpStatus) {
  base::Error transport = base::Error::Transport("connection refused");
  EXPECT_TRUE(IsTransportError(transport));
  EXPECT_FALSE(IsNotFound(transport));
  EXPECT_FALSE(IsTooManyRequests(transport));
}

TEST(ApiErrorTest, PlainErrorIsNoTransportFailure) {
  EXPECT_FALSE(IsTransportError(base::Error("decoding failed")));
  EXPECT_FALSE(IsNotFound(base::Error("not found")));
}

}  // namespace
}  // namespace kube
