// A fixture for the snapshot drivers' tests (CsiSnapshotDriver,
// CsiGroupSnapshotDriver): an in-process CSI driver answering from scripts
// (csi::testing::FakeDriver) and `Driver` on a real gRPC connection to it.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>

#include "csi/connection.h"
#include "tests/unit/csi/fake_driver.h"

namespace snapshotter::testing {

template <class Driver>
class CsiDriverTest : public ::testing::Test {
 protected:
  // Starts the fake and connects `driver_` with this --timeout.
  void Connect(std::chrono::nanoseconds timeout = std::chrono::seconds(10)) {
    fake_.Start();
    csi::ConnectOptions options;
    options.on_connection_loss = [] { ADD_FAILURE() << "connection lost"; };
    auto connection = csi::Connect(fake_.socket_path(), options);
    ASSERT_TRUE(connection.ok()) << connection.error().message;
    connection_ = std::move(connection).value();
    driver_ = std::make_unique<Driver>(*connection_, timeout);
  }
  // GetPluginInfo answers "csi.example.com".
  void NameDriver() {
    fake_.get_plugin_info = [](auto*, auto&, csi::v1::GetPluginInfoResponse* response) {
      response->set_name("csi.example.com");
      return grpc::Status::OK;
    };
  }

  csi::testing::FakeDriver fake_;
  std::unique_ptr<csi::Connection> connection_;
  std::unique_ptr<Driver> driver_;
};

}  // namespace snapshotter::testing
