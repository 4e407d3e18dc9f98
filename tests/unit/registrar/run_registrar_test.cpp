// registrar::RunRegistrar's start-up against an in-process driver
// (docs/node-sidecars.md §3.2 step 6, §9.3).
#include "registrar/run_registrar.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>

#include "tests/support/temp_dir.h"
#include "tests/unit/csi/fake_driver.h"

namespace registrar {
namespace {

using namespace std::chrono_literals;

RegistrarOptions OptionsFor(const csi::testing::FakeDriver& driver, const test::TempDir& dir) {
  RegistrarOptions options;
  options.csi_address = driver.socket_path();
  options.kubelet_registration_path = "/k/csi.sock";
  options.plugin_registration_path = dir.path().string();
  options.timeout = 200ms;
  options.driver_name_window = 5s;
  return options;
}

// §3.2 step 6: an empty name is exit 1 at once; only failed calls are retried (§9.3).
TEST(RunRegistrarTest, EmptyDriverNameIsExitOneWithoutRetry) {
  csi::testing::FakeDriver driver;
  std::atomic<int> calls = 0;
  driver.get_plugin_info = [&](grpc::ServerContext*, const csi::v1::GetPluginInfoRequest&,
                               csi::v1::GetPluginInfoResponse*) {
    ++calls;
    return grpc::Status::OK;
  };
  driver.Start();
  test::TempDir dir;
  std::stop_source stop;
  EXPECT_EQ(RunRegistrar(OptionsFor(driver, dir), stop.get_token()), 1);
  EXPECT_EQ(calls, 1);
}

// §9.3: a failing GetPluginInfo is retried until the window ends, then exit 1.
TEST(RunRegistrarTest, FailingGetPluginInfoIsRetriedWithinTheWindowThenExitOne) {
  csi::testing::FakeDriver driver;
  std::atomic<int> calls = 0;
  driver.get_plugin_info = [&](grpc::ServerContext*, const csi::v1::GetPluginInfoRequest&,
                               csi::v1::GetPluginInfoResponse*) {
    ++calls;
    return grpc::Status(grpc::StatusCode::UNAVAILABLE, "starting");
  };
  driver.Start();
  test::TempDir dir;
  RegistrarOptions options = OptionsFor(driver, dir);
  options.driver_name_window = 2500ms;
  std::stop_source stop;
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(RunRegistrar(options, stop.get_token()), 1);
  EXPECT_GE(std::chrono::steady_clock::now() - start, 1500ms);
  EXPECT_GE(calls, 2);
  EXPECT_LE(calls, 3);
}

}  // namespace
}  // namespace registrar
