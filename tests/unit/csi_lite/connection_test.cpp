// csi_lite::Connection and IdentityClient against a gRPC C++ server
// (tests/unit/csi/fake_driver.h): the calls livenessprobe makes, their
// errors, metrics and logs, and Connect's wait for the socket.
#include "csi_lite/connection.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "csi_lite/identity_client.h"
#include "tests/unit/csi/fake_driver.h"

namespace csi_lite {
namespace {

using namespace std::chrono_literals;
using csi::testing::FakeDriver;

class ConnectionTest : public ::testing::Test {
 protected:
  std::unique_ptr<Connection> ConnectTo(const std::string& path) {
    ConnectOptions options;
    options.connect_timeout = 2s;
    options.metrics = [this](const csi::CallRecord& call) {
      std::lock_guard lock(mu_);
      calls_.emplace_back(std::string(call.method), call.code);
    };
    auto connection = Connection::Connect(path, std::move(options));
    EXPECT_TRUE(connection.ok()) << connection.error().message;
    return connection.ok() ? std::move(connection).value() : nullptr;
  }

  FakeDriver driver_;
  std::mutex mu_;
  std::vector<std::pair<std::string, int>> calls_;
};

TEST_F(ConnectionTest, ProbeReadsReadyAbsentTrueAndFalse) {
  std::optional<bool> ready;
  driver_.probe = [&](grpc::ServerContext*, const csi::v1::ProbeRequest&,
                      csi::v1::ProbeResponse* response) {
    if (ready) response->mutable_ready()->set_value(*ready);
    return grpc::Status::OK;
  };
  driver_.Start();
  auto connection = ConnectTo(driver_.socket_path());
  ASSERT_NE(connection, nullptr);
  IdentityClient identity(*connection);
  EXPECT_EQ(identity.Probe(1s).value(), true);  // absent means ready
  ready = true;
  EXPECT_EQ(identity.Probe(1s).value(), true);
  ready = false;
  EXPECT_EQ(identity.Probe(1s).value(), false);
  EXPECT_THAT(calls_, ::testing::Each(::testing::Pair("/csi.v1.Identity/Probe", 0)));
  EXPECT_EQ(calls_.size(), 3u);
}

TEST_F(ConnectionTest, ErrorStatusIsGoStyleAndRecordedWithItsCode) {
  driver_.probe = [](grpc::ServerContext*, const csi::v1::ProbeRequest&, csi::v1::ProbeResponse*) {
    return grpc::Status(grpc::StatusCode::INTERNAL, "boom: 100% broken");
  };
  driver_.Start();
  testsupport::LogCapture logs(5);
  auto connection = ConnectTo(driver_.socket_path());
  ASSERT_NE(connection, nullptr);
  auto ready = IdentityClient(*connection).Probe(1s);
  ASSERT_FALSE(ready.ok());
  EXPECT_TRUE(ready.error().IsGrpc());
  EXPECT_EQ(ready.error().message, "rpc error: code = Internal desc = boom: 100% broken");
  EXPECT_THAT(calls_, ::testing::ElementsAre(::testing::Pair("/csi.v1.Identity/Probe", 13)));
  EXPECT_THAT(logs.Grep("GRPC call"), ::testing::SizeIs(1));
  EXPECT_THAT(logs.Grep("GRPC response"),
              ::testing::ElementsAre(::testing::HasSubstr("boom: 100% broken")));
}

TEST_F(ConnectionTest, HungProbeEndsAtItsTimeoutAndTheDriverSeesTheCancel) {
  std::atomic<bool> cancelled = false;
  driver_.probe = [&](grpc::ServerContext* context, const csi::v1::ProbeRequest&,
                      csi::v1::ProbeResponse*) {
    csi::testing::WaitForCancel(context);
    cancelled = context->IsCancelled();
    return grpc::Status::OK;
  };
  driver_.Start();
  auto connection = ConnectTo(driver_.socket_path());
  ASSERT_NE(connection, nullptr);
  auto start = std::chrono::steady_clock::now();
  auto ready = IdentityClient(*connection).Probe(300ms);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 1500ms);
  ASSERT_FALSE(ready.ok());
  EXPECT_EQ(ready.error().message,
            "rpc error: code = DeadlineExceeded desc = context deadline exceeded");
  connection.reset();
  driver_.Stop();  // waits for the handler
  EXPECT_TRUE(cancelled);
}

TEST_F(ConnectionTest, DriverNameFromGetPluginInfoLargerThanOneFrame) {
  driver_.get_plugin_info = [](grpc::ServerContext*, const csi::v1::GetPluginInfoRequest&,
                               csi::v1::GetPluginInfoResponse* response) {
    response->set_name("fault.csi.test");
    (*response->mutable_manifest())["big"] = std::string(100'000, 'x');
    return grpc::Status::OK;
  };
  driver_.Start();
  auto connection = ConnectTo(driver_.socket_path());
  ASSERT_NE(connection, nullptr);
  EXPECT_EQ(IdentityClient(*connection).GetDriverName(1s).value(), "fault.csi.test");
  EXPECT_THAT(calls_, ::testing::ElementsAre(::testing::Pair("/csi.v1.Identity/GetPluginInfo", 0)));
}

TEST_F(ConnectionTest, EmptyDriverNameIsAnError) {
  driver_.Start();
  auto connection = ConnectTo(driver_.socket_path());
  ASSERT_NE(connection, nullptr);
  auto name = IdentityClient(*connection).GetDriverName(1s);
  ASSERT_FALSE(name.ok());
  EXPECT_EQ(name.error().message, "driver name is empty");
}

TEST_F(ConnectionTest, ResponseThatDoesNotDecodeIsInternal) {
  driver_.Start();
  auto connection = ConnectTo(driver_.socket_path());
  ASSERT_NE(connection, nullptr);
  base::Status status = connection->Invoke(
      "/csi.v1.Identity/Probe", "", "{}", 1s,
      [](std::string_view) -> base::Result<std::string> { return base::Error("bad bytes"); });
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message,
            "rpc error: code = Internal desc = grpc: failed to unmarshal the received message: "
            "bad bytes");
  EXPECT_THAT(calls_, ::testing::ElementsAre(::testing::Pair("/csi.v1.Identity/Probe", 13)));
}

TEST_F(ConnectionTest, ConnectToAMissingSocketTimesOut) {
  ConnectOptions options;
  options.connect_timeout = 300ms;
  auto start = std::chrono::steady_clock::now();
  auto connection = Connection::Connect(driver_.socket_path(), std::move(options));
  auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(connection.ok());
  EXPECT_TRUE(connection.error().IsTransport());
  EXPECT_EQ(connection.error().message,
            "connecting to unix://" + driver_.socket_path() + ": context deadline exceeded");
  EXPECT_GE(took, 300ms);
  EXPECT_LT(took, 1500ms);
}

TEST_F(ConnectionTest, ConnectWaitsForTheSocketToAppearLoggingMeanwhile) {
  testsupport::LogCapture logs;
  std::jthread late_driver([this] {
    std::this_thread::sleep_for(1200ms);
    driver_.Start();
  });
  ConnectOptions options;
  options.connect_timeout = 10s;
  options.log_interval = 500ms;
  auto connection = Connection::Connect(driver_.socket_path(), std::move(options));
  late_driver.join();
  ASSERT_TRUE(connection.ok()) << connection.error().message;
  EXPECT_THAT(logs.Grep("Still connecting"), ::testing::Not(::testing::IsEmpty()));
  EXPECT_TRUE(IdentityClient(**connection).Probe(1s).ok());
}

TEST_F(ConnectionTest, StopEndsTheWaitAtOnce) {
  std::stop_source stop;
  ConnectOptions options;
  options.connect_timeout = 24h;
  options.stop = stop.get_token();
  std::jthread stopper([&] {
    std::this_thread::sleep_for(200ms);
    stop.request_stop();
  });
  auto start = std::chrono::steady_clock::now();
  auto connection = Connection::Connect(driver_.socket_path(), std::move(options));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 700ms);
  ASSERT_FALSE(connection.ok());
  EXPECT_EQ(connection.error().message,
            "connecting to unix://" + driver_.socket_path() + ": stopped");
}

}  // namespace
}  // namespace csi_lite
