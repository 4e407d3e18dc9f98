// docs/attacher.md §2: ProbeForever (per-attempt deadline; absent `ready` is
// ready; ready=false and DeadlineExceeded retry after 1 s; anything else
// fails "CSI driver probe failed: ..."), GetDriverName ("driver name is
// empty").
#include "csi/identity_client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <future>

#include "csi/errors.h"
#include "tests/unit/csi/fake_driver.h"

namespace csi {
namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;

class IdentityClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    driver_.Start();
    ConnectOptions options;
    options.clock = &clock_;
    options.on_connection_loss = [] { ADD_FAILURE() << "connection lost"; };
    auto connection = Connect(driver_.socket_path(), options);
    ASSERT_TRUE(connection.ok()) << connection.error().message;
    connection_ = std::move(connection).value();
    client_ = std::make_unique<IdentityClient>(*connection_);
  }

  // Answers ready=<answers[i]> to the i-th probe (absent when nullopt),
  // then ready=true.
  void ScriptProbes(std::vector<std::optional<bool>> answers) {
    driver_.probe = [this, answers](auto*, auto&, v1::ProbeResponse* response) {
      size_t i = probes_++;
      std::optional<bool> ready = i < answers.size() ? answers[i] : true;
      if (ready.has_value()) response->mutable_ready()->set_value(*ready);
      return grpc::Status::OK;
    };
  }

  // Polls (real time, up to 5 s) until ProbeForever sleeps after `probes`
  // probes.
  void AwaitSleepAfterProbe(int probes) {
    auto give_up = std::chrono::steady_clock::now() + 5s;
    while (!(probes_ == probes && clock_.Sleepers() == 1) &&
           std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(1ms);
    }
    ASSERT_EQ(probes_, probes);
    ASSERT_EQ(clock_.Sleepers(), 1);
  }

  base::FakeClock clock_;
  std::atomic<int> probes_{0};  // the driver's scripts count here
  testing::FakeDriver driver_;
  std::unique_ptr<Connection> connection_;
  std::unique_ptr<IdentityClient> client_;
};

TEST_F(IdentityClientTest, ProbeReadyReturnsAtOnce) {
  testing::LogCapture logs;
  ScriptProbes({true});
  EXPECT_TRUE(client_->ProbeForever(5s).ok());
  EXPECT_EQ(probes_, 1);
  EXPECT_EQ(logs.Grep("\"Probing CSI driver for readiness\"").size(), 1u);
}

TEST_F(IdentityClientTest, ProbeWithoutReadyFieldMeansReady) {
  ScriptProbes({std::nullopt});
  EXPECT_TRUE(client_->ProbeForever(5s).ok());
  EXPECT_EQ(probes_, 1);
}

TEST_F(IdentityClientTest, ProbeNotReadyRetriesAfterOneSecond) {
  testing::LogCapture logs;
  ScriptProbes({false, false, true});
  auto result = std::async(std::launch::async, [&] { return client_->ProbeForever(5s); });
  for (int retry = 1; retry <= 2; ++retry) {
    AwaitSleepAfterProbe(retry);
    clock_.Advance(999ms);
    EXPECT_EQ(result.wait_for(20ms), std::future_status::timeout) << "retried before 1 s";
    clock_.Advance(1ms);
  }
  EXPECT_TRUE(result.get().ok());
  EXPECT_EQ(probes_, 3);
  EXPECT_EQ(logs.Grep("\"CSI driver is not ready\"").size(), 2u);
}

TEST_F(IdentityClientTest, ProbeDeadlineExceededRetriesWithFreshDeadline) {
  testing::LogCapture logs;
  driver_.probe = [this](grpc::ServerContext* context, auto&, v1::ProbeResponse* response) {
    if (probes_++ == 0) testing::WaitForCancel(context);  // the first attempt times out
    response->mutable_ready()->set_value(true);
    return grpc::Status::OK;
  };
  auto result = std::async(std::launch::async, [&] { return client_->ProbeForever(100ms); });
  AwaitSleepAfterProbe(1);
  clock_.Advance(1s);
  EXPECT_TRUE(result.get().ok());
  EXPECT_EQ(probes_, 2);
  EXPECT_EQ(logs.Grep("\"CSI driver probe timed out\"").size(), 1u);
}

TEST_F(IdentityClientTest, ProbeOtherErrorsFail) {
  for (auto code : {grpc::StatusCode::UNIMPLEMENTED, grpc::StatusCode::UNAVAILABLE,
                    grpc::StatusCode::INTERNAL}) {
    testing::FakeDriver driver;
    driver.probe = [code](auto*, auto&, auto*) { return grpc::Status(code, "broken"); };
    driver.Start();
    ConnectOptions options;
    options.on_connection_loss = [] {};
    auto connection = Connect(driver.socket_path(), options);
    ASSERT_TRUE(connection.ok());
    auto status = IdentityClient(**connection).ProbeForever(5s);
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().message,
              "CSI driver probe failed: rpc error: code = " + CodeName(code) + " desc = broken");
    EXPECT_EQ(status.error().code, code);
    EXPECT_EQ(driver.calls(), 1);
  }
}

TEST_F(IdentityClientTest, ProbeStopsOnRequest) {
  ScriptProbes({false, false, false});
  std::stop_source stop;
  auto result =
      std::async(std::launch::async, [&] { return client_->ProbeForever(5s, stop.get_token()); });
  AwaitSleepAfterProbe(1);
  stop.request_stop();
  auto status = result.get();
  ASSERT_FALSE(status.ok());
  EXPECT_FALSE(status.error().IsGrpc());
  EXPECT_EQ(probes_, 1);
}

TEST_F(IdentityClientTest, DriverName) {
  driver_.get_plugin_info = [](auto*, auto&, v1::GetPluginInfoResponse* response) {
    response->set_name("ebs.csi.aws.com");
    response->set_vendor_version("1.2.3");
    return grpc::Status::OK;
  };
  auto name = client_->GetDriverName(1s);
  ASSERT_TRUE(name.ok()) << name.error().message;
  EXPECT_EQ(*name, "ebs.csi.aws.com");
}

TEST_F(IdentityClientTest, EmptyDriverNameIsAnError) {
  auto name = client_->GetDriverName(1s);
  ASSERT_FALSE(name.ok());
  EXPECT_EQ(name.error().message, "driver name is empty");
  EXPECT_FALSE(name.error().IsGrpc());
}

TEST_F(IdentityClientTest, DriverNameCallErrorIsGrpcError) {
  driver_.get_plugin_info = [](grpc::ServerContext* context, auto&, auto*) {
    testing::WaitForCancel(context);
    return grpc::Status::OK;
  };
  auto name = client_->GetDriverName(50ms);
  ASSERT_FALSE(name.ok());
  EXPECT_EQ(name.error().code, grpc::StatusCode::DEADLINE_EXCEEDED);
  EXPECT_THAT(name.error().message, HasSubstr("context deadline exceeded"));
}

}  // namespace
}  // namespace csi
