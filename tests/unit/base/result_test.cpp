// An Error's domain says what its code means: an HTTP status, a gRPC code, a
// transport failure or none, so that equal numbers of different layers are
// never confused.
#include "base/result.h"

#include <gtest/gtest.h>

namespace base {
namespace {

TEST(ErrorDomainTest, HttpNotFoundIsNotGrpcNotFound) {
  Error http = Error::Http(404, "secrets \"s\" not found");
  Error grpc = Error::Grpc(5, "rpc error: code = NotFound desc = no volume");
  EXPECT_TRUE(http.IsHttp(404));
  EXPECT_FALSE(http.IsGrpc());
  EXPECT_TRUE(grpc.IsGrpc());
  EXPECT_FALSE(grpc.IsHttp(5));
  EXPECT_FALSE(grpc.IsHttp(404));
}

TEST(ErrorDomainTest, TransportFailureIsNeitherHttpNorGrpc) {
  Error transport = Error::Transport("GET https://api/version: Couldn't connect to server");
  EXPECT_TRUE(transport.IsTransport());
  EXPECT_FALSE(transport.IsGrpc());
  EXPECT_FALSE(transport.IsHttp(0));
  EXPECT_FALSE(Error::Http(503, "unavailable").IsTransport());
}

TEST(ErrorDomainTest, PlainAndLocallyCodedErrorsHaveNoDomain) {
  for (const Error& e : {Error("no code"), Error::WithCode(2, "usage")}) {
    EXPECT_EQ(e.domain, ErrorDomain::kNone) << e.message;
    EXPECT_FALSE(e.IsGrpc()) << e.message;
    EXPECT_FALSE(e.IsTransport()) << e.message;
    EXPECT_FALSE(e.IsHttp(e.code)) << e.message;
  }
  EXPECT_EQ(Error::WithCode(2, "usage").code, 2);
}

TEST(ErrorDomainTest, WrapKeepsDomainAndCode) {
  Error wrapped = Error::Grpc(10, "busy").Wrap("failed to attach");
  EXPECT_EQ(wrapped.message, "failed to attach: busy");
  EXPECT_TRUE(wrapped.IsGrpc());
  EXPECT_EQ(wrapped.code, 10);
  EXPECT_TRUE(Error::Http(409, "conflict").Wrap("saving").IsHttp(409));
  EXPECT_TRUE(Error::Transport("reset").Wrap("watching").IsTransport());
}

}  // namespace
}  // namespace base
