// docs/attacher.md §2: --csi-address accepts only unix sockets, `/abs/path` or
// `unix://path`, because the attacher always exits on connection loss.
#include "csi/address.h"

#include <gtest/gtest.h>

#include "csi/errors.h"

namespace csi {
namespace {

constexpr std::string_view kRejected =
    "OnConnectionLoss callback only supported for unix:// addresses";

TEST(ParseAddressTest, AbsolutePathGetsUnixScheme) {
  auto a = ParseAddress("/run/csi/socket");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->uri, "unix:///run/csi/socket");
  EXPECT_EQ(a->path, "/run/csi/socket");
  EXPECT_EQ(a->GrpcTarget(), "unix:/run/csi/socket");
}

TEST(ParseAddressTest, UnixUriIsKept) {
  auto a = ParseAddress("unix:///csi/csi.sock");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->uri, "unix:///csi/csi.sock");
  EXPECT_EQ(a->path, "/csi/csi.sock");
}

TEST(ParseAddressTest, UnixUriWithRelativePathDialsRelativeToWorkingDir) {
  auto a = ParseAddress("unix://csi/csi.sock");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->path, "csi/csi.sock");
  EXPECT_EQ(a->GrpcTarget(), "unix:csi/csi.sock");
}

TEST(ParseAddressTest, EverythingElseIsRejectedWithUpstreamMessage) {
  for (std::string_view address :
       {"", "csi.sock", "run/csi/socket", "localhost:10000", "dns:///driver:10000",
        "tcp://127.0.0.1:10000", "unix:/run/csi/socket", "UNIX:///run/csi/socket"}) {
    auto a = ParseAddress(address);
    ASSERT_FALSE(a.ok()) << address;
    EXPECT_EQ(a.error().message, kRejected) << address;
    EXPECT_FALSE(a.error().IsGrpc());
  }
}

}  // namespace
}  // namespace csi
