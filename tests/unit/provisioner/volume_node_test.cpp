// docs/provisioner.md §3.12, §4.2 step 1: VolumeController in node
// deployment, on a node whose NodeGetInfo says zone z1: of the Released PVs
// of policy Delete, only those whose node affinity admits this node (or
// that have none) are deleted; another node's gets no call and no Event.
// "Never" is read after SettleVolumes(), a PV behind them in the one
// worker's FIFO.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "provisioner/volume_controller.h"
#include "provisioner_fakes.h"

namespace provisioner {
namespace {

using fakes::DriverClass;
using fakes::DriverVolume;
using kube::WatchEventType;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr std::string_view kVolumeZoneKey = "topology.example.com/zone";

kube::PersistentVolume ReleasedIn(const std::string& name, const std::string& zone) {
  kube::PersistentVolume volume = DriverVolume(name, "Released");
  if (!zone.empty()) {
    volume.spec.node_affinity = {kube::NodeSelectorTerm{
        .match_expressions = {
            {.key = std::string(kVolumeZoneKey), .operator_ = "In", .values = {zone}}}}};
  }
  return volume;
}

class VolumeNodeTest : public fakes::World {
 protected:
  void Start(std::vector<kube::PersistentVolume> volumes) {
    volumes_.SetItems(std::move(volumes));
    classes_.SetItems({DriverClass()});
    kube::InformerSet& informers = MakeInformers();
    VolumeControllerOptions options;
    options.loop.worker_threads = 1;
    options.node = NodeDeploymentOptions{
        .node_name = "node-a",
        .info = {.node_id = "id-a", .topology = TopologyTerm{{std::string(kVolumeZoneKey), "z1"}}}};
    controller_.emplace(std::string(fakes::kDriver), std::move(options), informers, api_, driver_,
                        events_, nullptr, clock_);
    RunController(*controller_);
  }

  void SettleVolumes() {
    Send(volumes_, WatchEventType::kAdded, DriverVolume("sentinel", "Bound"));
    ASSERT_TRUE(log_.Await("PATCH", "sentinel"));
  }

  fakes::FakeVolumeEvents events_{log_};
  std::optional<VolumeController> controller_;
};

TEST_F(VolumeNodeTest, OnlyVolumesOfThisNodeAreDeleted) {
  Start({ReleasedIn("pv-here", "z1"), ReleasedIn("pv-there", "z2"), ReleasedIn("pv-anywhere", "")});
  ASSERT_TRUE(log_.Await("DELETE", "pv-here"));
  ASSERT_TRUE(log_.Await("DELETE", "pv-anywhere"));
  ASSERT_NO_FATAL_FAILURE(SettleVolumes());
  EXPECT_THAT(log_.Of({"vol-pv-here", "pv-here"}),
              ElementsAre("DeleteVolume vol-pv-here: {}", "DELETE pv-here"));
  EXPECT_THAT(log_.Of({"vol-pv-there", "pv-there"}), IsEmpty());
}

}  // namespace
}  // namespace provisioner
