// The HTTP endpoint's flags (one address at most, metrics-address winning)
// and its start.
#include "component/http_endpoint.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/free_port.h"
#include "tests/support/http_get.h"

namespace component {
namespace {

TEST(CheckHttpEndpointTest, BothAddressesAreRejected) {
  HttpEndpointOptions options;
  options.metrics_address = ":8080";
  EXPECT_TRUE(CheckHttpEndpoint(options).ok());
  EXPECT_EQ(HttpAddress(options), ":8080");
  options.http_endpoint = ":8081";
  base::Status s = CheckHttpEndpoint(options);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "Only one of `--metrics-address` and `--http-endpoint` can be set");
  options.metrics_address.clear();
  EXPECT_TRUE(CheckHttpEndpoint(options).ok());
  EXPECT_EQ(HttpAddress(options), ":8081");
}

TEST(HttpEndpointTest, NoAddressServesNothing) {
  metrics::Registry registry;
  HttpEndpoint endpoint;
  EXPECT_TRUE(endpoint.Start(HttpEndpointOptions{}, registry).ok());
}

// The binary words the failure; the endpoint hands up why it cannot listen.
TEST(HttpEndpointTest, AnAddressInUseIsAnError) {
  auto taken = metrics::HttpServer::Start("127.0.0.1:0");
  ASSERT_TRUE(taken.ok()) << taken.error().message;
  HttpEndpointOptions options;
  options.http_endpoint = "127.0.0.1:" + std::to_string((*taken)->port());
  metrics::Registry registry;
  HttpEndpoint endpoint;
  base::Status s = endpoint.Start(options, registry);
  ASSERT_FALSE(s.ok());
  EXPECT_FALSE(s.error().message.empty());
}

// csi-sidecars: one check per Lease at /healthz/leader-election/<lease>, and
// the plain path failing while any of them fails.
TEST(HttpEndpointTest, EachLeaseHasItsOwnHealthCheckAndThePlainPathNeedsAll) {
  base::Result<int> port = testsupport::PickFreeLoopbackPort();
  ASSERT_TRUE(port.ok()) << port.error().message;
  HttpEndpointOptions options;
  options.http_endpoint = "127.0.0.1:" + std::to_string(*port);
  metrics::Registry registry;
  HttpEndpoint endpoint;
  ASSERT_TRUE(endpoint.Start(options, registry).ok());
  endpoint.ServeLeaderElectionHealth([] { return base::Status::Ok(); }, "lease-a");
  endpoint.ServeLeaderElectionHealth([] { return base::Error("lease-b expired"); }, "lease-b");

  using ::testing::HasSubstr;
  EXPECT_THAT(testsupport::HttpGet(*port, "/healthz/leader-election/lease-a"), HasSubstr(" 200 "));
  const std::string b = testsupport::HttpGet(*port, "/healthz/leader-election/lease-b");
  EXPECT_THAT(b, HasSubstr(" 500 "));
  EXPECT_THAT(b, HasSubstr("lease-b expired"));
  const std::string all = testsupport::HttpGet(*port, "/healthz/leader-election");
  EXPECT_THAT(all, HasSubstr(" 500 "));
  EXPECT_THAT(all, HasSubstr("lease-b expired"));
}

TEST(HttpEndpointTest, OneLeasesCheckIsServedAtThePlainPath) {
  base::Result<int> port = testsupport::PickFreeLoopbackPort();
  ASSERT_TRUE(port.ok()) << port.error().message;
  HttpEndpointOptions options;
  options.http_endpoint = "127.0.0.1:" + std::to_string(*port);
  metrics::Registry registry;
  HttpEndpoint endpoint;
  ASSERT_TRUE(endpoint.Start(options, registry).ok());
  endpoint.ServeLeaderElectionHealth([] { return base::Status::Ok(); });
  EXPECT_THAT(testsupport::HttpGet(*port, "/healthz/leader-election"),
              ::testing::HasSubstr(" 200 "));
}

}  // namespace
}  // namespace component
