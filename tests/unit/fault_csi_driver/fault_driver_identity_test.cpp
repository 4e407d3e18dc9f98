// Identity answers and the service/capability switches.
#include "tests/unit/fault_csi_driver/driver_fixture.h"

namespace faultdriver {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

class FaultDriverIdentityTest : public DriverFixture {};

std::vector<int> ControllerCapabilities(csi::v1::Controller::Stub& stub) {
  csi::v1::ControllerGetCapabilitiesResponse response;
  grpc::ClientContext context;
  EXPECT_TRUE(stub.ControllerGetCapabilities(&context, {}, &response).ok());
  std::vector<int> types;
  for (const auto& capability : response.capabilities()) types.push_back(capability.rpc().type());
  return types;
}

TEST_F(FaultDriverIdentityTest, ReportsNameVersionAndCapabilities) {
  StartDriver(
      {"--name=pd.csi.storage.gke.io",
       "--capabilities=PUBLISH_UNPUBLISH_VOLUME,PUBLISH_READONLY,SINGLE_NODE_MULTI_WRITER"});
  csi::v1::GetPluginInfoResponse info;
  ASSERT_TRUE(identity_->GetPluginInfo(Context().get(), {}, &info).ok());
  EXPECT_EQ(info.name(), "pd.csi.storage.gke.io");
  EXPECT_EQ(info.vendor_version(), "0.1.0");

  csi::v1::GetPluginCapabilitiesResponse plugin;
  ASSERT_TRUE(identity_->GetPluginCapabilities(Context().get(), {}, &plugin).ok());
  ASSERT_EQ(plugin.capabilities_size(), 1);
  EXPECT_EQ(plugin.capabilities(0).service().type(),
            csi::v1::PluginCapability::Service::CONTROLLER_SERVICE);

  using Rpc = csi::v1::ControllerServiceCapability::RPC;
  EXPECT_THAT(ControllerCapabilities(*controller_),
              ElementsAre(Rpc::PUBLISH_UNPUBLISH_VOLUME, Rpc::PUBLISH_READONLY,
                          Rpc::SINGLE_NODE_MULTI_WRITER));

  csi::v1::ProbeResponse probe;
  ASSERT_TRUE(identity_->Probe(Context().get(), {}, &probe).ok());
  EXPECT_TRUE(probe.ready().value());
}

TEST_F(FaultDriverIdentityTest, NoControllerServiceAdvertisesAndServesNone) {
  StartDriver({"--no-controller-service"});
  csi::v1::GetPluginCapabilitiesResponse plugin;
  ASSERT_TRUE(identity_->GetPluginCapabilities(Context().get(), {}, &plugin).ok());
  EXPECT_THAT(plugin.capabilities(), IsEmpty());
  EXPECT_EQ(Publish("v1").error_code(), grpc::StatusCode::UNIMPLEMENTED);
}

TEST_F(FaultDriverIdentityTest, ListVolumesNeedsTheCapability) {
  StartDriver({"--capabilities=PUBLISH_UNPUBLISH_VOLUME"});
  csi::v1::ListVolumesResponse response;
  EXPECT_EQ(controller_->ListVolumes(Context().get(), {}, &response).error_code(),
            grpc::StatusCode::UNIMPLEMENTED);
}

TEST_F(FaultDriverIdentityTest, UnknownCapabilityIsAUsageError) {
  auto spawned = testsupport::Process::Spawn(
      {.argv = {FAULT_CSI_DRIVER_PATH, "--endpoint=" + SocketPath(), "--capabilities=ATTACH"},
       .log_file = LogPath()});
  ASSERT_TRUE(spawned.ok());
  EXPECT_EQ((*spawned)->Wait(), 2);
}

// The driver serves only what an attacher calls; the rest of the spec is
// answered by the generated services as UNIMPLEMENTED.
TEST_F(FaultDriverIdentityTest, SnapshotCallsAreUnimplemented) {
  StartDriver();
  csi::v1::CreateSnapshotResponse snapshot;
  EXPECT_EQ(controller_->CreateSnapshot(Context().get(), {}, &snapshot).error_code(),
            grpc::StatusCode::UNIMPLEMENTED);
  auto group_controller = csi::v1::GroupController::NewStub(channel_);
  csi::v1::GroupControllerGetCapabilitiesResponse group;
  EXPECT_EQ(
      group_controller->GroupControllerGetCapabilities(Context().get(), {}, &group).error_code(),
      grpc::StatusCode::UNIMPLEMENTED);
}

}  // namespace
}  // namespace faultdriver
