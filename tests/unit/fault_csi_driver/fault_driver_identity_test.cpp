// Identity answers and the service/capability switches.
#include "tests/unit/fault_csi_driver/driver_fixture.h"

namespace faultdriver {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using Rpc = csi::v1::ControllerServiceCapability::RPC;
using Service = csi::v1::PluginCapability::Service;

class FaultDriverIdentityTest : public DriverFixture {};

std::vector<int> ControllerCapabilities(csi::v1::Controller::Stub& stub) {
  csi::v1::ControllerGetCapabilitiesResponse response;
  grpc::ClientContext context;
  EXPECT_TRUE(stub.ControllerGetCapabilities(&context, {}, &response).ok());
  std::vector<int> types;
  for (const auto& capability : response.capabilities()) types.push_back(capability.rpc().type());
  return types;
}

std::vector<int> PluginServices(const csi::v1::GetPluginCapabilitiesResponse& response) {
  std::vector<int> types;
  for (const auto& capability : response.capabilities())
    types.push_back(capability.service().type());
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
  EXPECT_THAT(PluginServices(plugin),
              ElementsAre(Service::CONTROLLER_SERVICE, Service::GROUP_CONTROLLER_SERVICE));

  EXPECT_THAT(ControllerCapabilities(*controller_),
              ElementsAre(Rpc::PUBLISH_UNPUBLISH_VOLUME, Rpc::PUBLISH_READONLY,
                          Rpc::SINGLE_NODE_MULTI_WRITER, Rpc::CREATE_DELETE_VOLUME,
                          Rpc::CREATE_DELETE_SNAPSHOT, Rpc::LIST_SNAPSHOTS));

  csi::v1::ProbeResponse probe;
  ASSERT_TRUE(identity_->Probe(Context().get(), {}, &probe).ok());
  EXPECT_TRUE(probe.ready().value());
}

TEST_F(FaultDriverIdentityTest, NoControllerServiceAdvertisesAndServesNone) {
  StartDriver({"--no-controller-service"});
  csi::v1::GetPluginCapabilitiesResponse plugin;
  ASSERT_TRUE(identity_->GetPluginCapabilities(Context().get(), {}, &plugin).ok());
  EXPECT_THAT(PluginServices(plugin), ElementsAre(Service::GROUP_CONTROLLER_SERVICE));
  EXPECT_EQ(Publish("v1").error_code(), grpc::StatusCode::UNIMPLEMENTED);
}

TEST_F(FaultDriverIdentityTest, ListVolumesNeedsTheCapability) {
  StartDriver({"--capabilities=PUBLISH_UNPUBLISH_VOLUME"});
  csi::v1::ListVolumesResponse response;
  EXPECT_EQ(controller_->ListVolumes(Context().get(), {}, &response).error_code(),
            grpc::StatusCode::UNIMPLEMENTED);
}

// Flag mistakes exit 2 before serving, like Go's flag package.
TEST_F(FaultDriverIdentityTest, BadFlagsAreUsageErrors) {
  const std::vector<std::vector<std::string>> bad_flags = {
      {"--capabilities=ATTACH"},
      {"--capabilities=CREATE_DELETE_VOLUME", "--no-create-delete-volume"},
      {"--capabilities=CREATE_DELETE_SNAPSHOT", "--no-snapshots"},
      {"--capabilities=LIST_SNAPSHOTS", "--no-list-snapshots"},
      {"--volumes=vol-1"},
      {"--volumes=vol-1:big"},
      {"--volumes=vol-1:-1"},
      {"--snapshot-size-bytes=-1"}};
  for (const std::vector<std::string>& flags : bad_flags) {
    std::vector<std::string> argv = {FAULT_CSI_DRIVER_PATH, "--endpoint=" + SocketPath()};
    argv.insert(argv.end(), flags.begin(), flags.end());
    auto spawned = testsupport::Process::Spawn({.argv = argv, .log_file = LogPath()});
    ASSERT_TRUE(spawned.ok());
    EXPECT_EQ((*spawned)->Wait(), 2) << flags.back();
  }
}

TEST_F(FaultDriverIdentityTest, NoListSnapshotsDropsOnlyListSnapshots) {
  StartDriver({"--capabilities=PUBLISH_UNPUBLISH_VOLUME", "--no-list-snapshots"});
  EXPECT_THAT(ControllerCapabilities(*controller_),
              ElementsAre(Rpc::PUBLISH_UNPUBLISH_VOLUME, Rpc::CREATE_DELETE_VOLUME,
                          Rpc::CREATE_DELETE_SNAPSHOT));
  csi::v1::ListSnapshotsResponse response;
  EXPECT_EQ(controller_->ListSnapshots(Context().get(), {}, &response).error_code(),
            grpc::StatusCode::UNIMPLEMENTED);
}

// A driver that cannot provision: only pre-provisioned volumes.
TEST_F(FaultDriverIdentityTest, NoCreateDeleteVolumeAdvertisesAndServesNoVolumeLifecycle) {
  StartDriver({"--capabilities=PUBLISH_UNPUBLISH_VOLUME", "--no-create-delete-volume"});
  EXPECT_THAT(
      ControllerCapabilities(*controller_),
      ElementsAre(Rpc::PUBLISH_UNPUBLISH_VOLUME, Rpc::CREATE_DELETE_SNAPSHOT, Rpc::LIST_SNAPSHOTS));
  csi::v1::CreateVolumeRequest create;
  create.set_name("pvc-1");
  create.add_volume_capabilities()->mutable_mount();
  csi::v1::CreateVolumeResponse created;
  EXPECT_EQ(controller_->CreateVolume(Context().get(), create, &created).error_code(),
            grpc::StatusCode::UNIMPLEMENTED);
  csi::v1::DeleteVolumeRequest remove;
  remove.set_volume_id("vol-pvc-1");
  csi::v1::DeleteVolumeResponse removed;
  EXPECT_EQ(controller_->DeleteVolume(Context().get(), remove, &removed).error_code(),
            grpc::StatusCode::UNIMPLEMENTED);
  EXPECT_THAT(ReadState()["existing_volumes"], IsEmpty());
}

// A driver without snapshots: the snapshotter's start-up must refuse it.
TEST_F(FaultDriverIdentityTest, NoSnapshotsAdvertisesAndServesNoSnapshotCalls) {
  StartDriver({"--capabilities=PUBLISH_UNPUBLISH_VOLUME", "--no-snapshots", "--volumes=vol-1:0"});
  EXPECT_THAT(ControllerCapabilities(*controller_),
              ElementsAre(Rpc::PUBLISH_UNPUBLISH_VOLUME, Rpc::CREATE_DELETE_VOLUME));
  csi::v1::CreateSnapshotRequest create;
  create.set_name("snap-a");
  create.set_source_volume_id("vol-1");
  csi::v1::CreateSnapshotResponse created;
  EXPECT_EQ(controller_->CreateSnapshot(Context().get(), create, &created).error_code(),
            grpc::StatusCode::UNIMPLEMENTED);
  csi::v1::DeleteSnapshotRequest remove;
  remove.set_snapshot_id("handle-1");
  csi::v1::DeleteSnapshotResponse removed;
  EXPECT_EQ(controller_->DeleteSnapshot(Context().get(), remove, &removed).error_code(),
            grpc::StatusCode::UNIMPLEMENTED);
  csi::v1::ListSnapshotsResponse listed;
  EXPECT_EQ(controller_->ListSnapshots(Context().get(), {}, &listed).error_code(),
            grpc::StatusCode::UNIMPLEMENTED);
  EXPECT_THAT(ReadState()["existing_snapshots"], IsEmpty());
}

TEST_F(FaultDriverIdentityTest, GroupControllerAdvertisesGroupSnapshotCapability) {
  StartDriver();
  auto group_controller = csi::v1::GroupController::NewStub(channel_);
  csi::v1::GroupControllerGetCapabilitiesResponse group;
  ASSERT_TRUE(group_controller->GroupControllerGetCapabilities(Context().get(), {}, &group).ok());
  ASSERT_EQ(group.capabilities_size(), 1);
  EXPECT_EQ(
      group.capabilities(0).rpc().type(),
      csi::v1::GroupControllerServiceCapability::RPC::CREATE_DELETE_GET_VOLUME_GROUP_SNAPSHOT);
}

// A driver without group snapshots: the service is neither advertised nor
// served (the generated service answers UNIMPLEMENTED), single snapshots stay.
TEST_F(FaultDriverIdentityTest, NoGroupSnapshotsAdvertisesAndServesNoGroupController) {
  StartDriver({"--no-group-snapshots", "--volumes=vol-1:0"});
  csi::v1::GetPluginCapabilitiesResponse plugin;
  ASSERT_TRUE(identity_->GetPluginCapabilities(Context().get(), {}, &plugin).ok());
  EXPECT_THAT(PluginServices(plugin), ElementsAre(Service::CONTROLLER_SERVICE));

  auto group_controller = csi::v1::GroupController::NewStub(channel_);
  csi::v1::GroupControllerGetCapabilitiesResponse group;
  EXPECT_EQ(
      group_controller->GroupControllerGetCapabilities(Context().get(), {}, &group).error_code(),
      grpc::StatusCode::UNIMPLEMENTED);
  csi::v1::CreateVolumeGroupSnapshotRequest create;
  create.set_name("group-a");
  create.add_source_volume_ids("vol-1");
  csi::v1::CreateVolumeGroupSnapshotResponse created;
  EXPECT_EQ(
      group_controller->CreateVolumeGroupSnapshot(Context().get(), create, &created).error_code(),
      grpc::StatusCode::UNIMPLEMENTED);
  EXPECT_THAT(ControllerCapabilities(*controller_),
              ElementsAre(Rpc::PUBLISH_UNPUBLISH_VOLUME, Rpc::LIST_VOLUMES,
                          Rpc::LIST_VOLUMES_PUBLISHED_NODES, Rpc::CREATE_DELETE_VOLUME,
                          Rpc::CREATE_DELETE_SNAPSHOT, Rpc::LIST_SNAPSHOTS));
  EXPECT_THAT(ReadState()["existing_group_snapshots"], IsEmpty());
}

}  // namespace
}  // namespace faultdriver
