#include "kube/client/http2_options.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace kube {
namespace {

using namespace std::chrono_literals;

Http2Options From(const std::map<std::string, std::string>& environment) {
  return Http2Options::FromEnvironment([&](const char* name) -> const char* {
    auto it = environment.find(name);
    return it == environment.end() ? nullptr : it->second.c_str();
  });
}

TEST(Http2OptionsTest, DefaultsAreClientGosHttp2WithA30sReadIdleAnd15sPingTimeout) {
  auto options = From({});
  EXPECT_TRUE(options.enabled);
  EXPECT_EQ(options.read_idle, 30s);
  EXPECT_EQ(options.ping_timeout, 15s);
}

TEST(Http2OptionsTest, DisableHttp2WithAnyValueTurnsItOffAndEmptyDoesNot) {
  EXPECT_FALSE(From({{"DISABLE_HTTP2", "true"}}).enabled);
  EXPECT_FALSE(From({{"DISABLE_HTTP2", "0"}}).enabled);
  EXPECT_TRUE(From({{"DISABLE_HTTP2", ""}}).enabled);
}

TEST(Http2OptionsTest, HealthTimingsComeFromTheirVariablesInSeconds) {
  auto options =
      From({{"HTTP2_READ_IDLE_TIMEOUT_SECONDS", "10"}, {"HTTP2_PING_TIMEOUT_SECONDS", "5"}});
  EXPECT_EQ(options.read_idle, 10s);
  EXPECT_EQ(options.ping_timeout, 5s);
  EXPECT_EQ(From({{"HTTP2_READ_IDLE_TIMEOUT_SECONDS", "0"}}).read_idle, 0s);
}

TEST(Http2OptionsTest, AValueThatIsNotANumberKeepsTheDefault) {
  auto options =
      From({{"HTTP2_READ_IDLE_TIMEOUT_SECONDS", "30s"}, {"HTTP2_PING_TIMEOUT_SECONDS", "-1"}});
  EXPECT_EQ(options.read_idle, 30s);
  EXPECT_EQ(options.ping_timeout, 15s);
}

}  // namespace
}  // namespace kube
