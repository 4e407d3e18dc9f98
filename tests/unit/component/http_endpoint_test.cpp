// The HTTP endpoint's flags: one address at most, metrics-address winning.
#include "component/http_endpoint.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace component
