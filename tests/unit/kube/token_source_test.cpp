#include "kube/client/token_source.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "base/log.h"
#include "tests/support/temp_dir.h"

namespace kube {
namespace {

using std::chrono::seconds;
using ::testing::HasSubstr;
using ::testing::Not;

class TokenSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base::SetLogSink([this](std::string_view line) {
      std::lock_guard lock(log_mu_);
      log_ += line;
    });
  }
  void TearDown() override { base::SetLogSink(nullptr); }

  RestConfig FileConfig(const std::string& contents) {
    RestConfig config;
    config.bearer_token_file = dir_.Write("token", contents);
    return config;
  }
  void Rewrite(const std::string& contents) { dir_.Write("token", contents); }
  std::string Log() {
    std::lock_guard lock(log_mu_);
    return log_;
  }
  std::string TokenOrError(BearerTokenSource& source) {
    auto token = source.Token();
    return token.ok() ? *token : "error: " + token.error().message;
  }

  test::TempDir dir_;
  base::FakeClock clock_;
  std::mutex log_mu_;
  std::string log_;
};

TEST_F(TokenSourceTest, StaticTokenIsReturnedAsIs) {
  RestConfig config;
  config.bearer_token = "static";
  BearerTokenSource source(config, clock_);
  EXPECT_EQ(TokenOrError(source), "static");
}

TEST_F(TokenSourceTest, NoTokenConfiguredGivesEmptyToken) {
  BearerTokenSource source(RestConfig{}, clock_);
  EXPECT_EQ(TokenOrError(source), "");
}

TEST_F(TokenSourceTest, ReadsAndTrimsTokenFile) {
  BearerTokenSource source(FileConfig("first\n"), clock_);
  EXPECT_EQ(TokenOrError(source), "first");
}

TEST_F(TokenSourceTest, KeepsCachedTokenUntilRefreshPeriodPasses) {
  BearerTokenSource source(FileConfig("first"), clock_);
  ASSERT_EQ(TokenOrError(source), "first");
  Rewrite("second");
  clock_.Advance(BearerTokenSource::kRefreshAfter - seconds(1));
  EXPECT_EQ(TokenOrError(source), "first");
}

TEST_F(TokenSourceTest, RereadsRotatedFileOncePeriodHasPassed) {
  BearerTokenSource source(FileConfig("first"), clock_);
  ASSERT_EQ(TokenOrError(source), "first");
  Rewrite("second");
  clock_.Advance(BearerTokenSource::kRefreshAfter);
  EXPECT_EQ(TokenOrError(source), "second");
  Rewrite("third");
  clock_.Advance(seconds(61));
  EXPECT_EQ(TokenOrError(source), "third");
}

TEST_F(TokenSourceTest, RefreshPeriodMatchesClientGoMinuteMinusLeeway) {
  EXPECT_EQ(BearerTokenSource::kRefreshAfter, seconds(60) - seconds(10));
}

TEST_F(TokenSourceTest, DeletedFileKeepsLastGoodTokenAndWarnsWithoutIt) {
  BearerTokenSource source(FileConfig("first-secret"), clock_);
  ASSERT_EQ(TokenOrError(source), "first-secret");
  std::filesystem::remove(dir_.path() / "token");
  clock_.Advance(seconds(61));
  EXPECT_EQ(TokenOrError(source), "first-secret");
  EXPECT_THAT(Log(), HasSubstr("Unable to rotate token"));
  EXPECT_THAT(Log(), Not(HasSubstr("first-secret")));
}

TEST_F(TokenSourceTest, RecoversWhenFileReappears) {
  BearerTokenSource source(FileConfig("first"), clock_);
  ASSERT_EQ(TokenOrError(source), "first");
  std::filesystem::remove(dir_.path() / "token");
  clock_.Advance(seconds(61));
  ASSERT_EQ(TokenOrError(source), "first");
  Rewrite("second");
  clock_.Advance(BearerTokenSource::kRefreshAfter);
  EXPECT_EQ(TokenOrError(source), "second");
}

TEST_F(TokenSourceTest, EmptyTokenFileIsAnError) {
  BearerTokenSource source(FileConfig(" \n"), clock_);
  EXPECT_THAT(TokenOrError(source), HasSubstr("is empty"));
}

TEST_F(TokenSourceTest, MissingFileWithoutFallbackIsAnErrorRetriedOnEveryCall) {
  RestConfig config;
  config.bearer_token_file = (dir_.path() / "token").string();
  BearerTokenSource source(config, clock_);
  EXPECT_THAT(TokenOrError(source), HasSubstr("error: open"));
  Rewrite("late");
  EXPECT_EQ(TokenOrError(source), "late");
}

TEST_F(TokenSourceTest, FileTokenWinsOverStaticTokenWhenReadable) {
  RestConfig config = FileConfig("from-file");
  config.bearer_token = "from-kubeconfig";
  BearerTokenSource source(config, clock_);
  EXPECT_EQ(TokenOrError(source), "from-file");
}

TEST_F(TokenSourceTest, StaticTokenIsFallbackWhileFileIsUnreadable) {
  RestConfig config;
  config.bearer_token = "from-kubeconfig";
  config.bearer_token_file = (dir_.path() / "token").string();
  BearerTokenSource source(config, clock_);
  EXPECT_EQ(TokenOrError(source), "from-kubeconfig");
  Rewrite("from-file");
  clock_.Advance(BearerTokenSource::kRefreshAfter);
  EXPECT_EQ(TokenOrError(source), "from-file");
}

TEST(ReadTokenFileTest, ErrorNamesThePath) {
  auto result = ReadTokenFile("/no/such/token");
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.error().message, HasSubstr("/no/such/token"));
}

}  // namespace
}  // namespace kube
