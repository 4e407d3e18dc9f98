#include "tests/integration/snapshot_controller/controller_pair_fixture.h"

namespace snapshot_it {

std::vector<Pairing> AllPairings() {
  return {
      {.name = "OursOurs",
       .tag = "ours-ours",
       .controller = OurController(),
       .sidecar = OurSidecar()},
      {.name = "OursControllerUpstreamSidecar",
       .tag = "ours-up",
       .controller = OurController(),
       .sidecar = UpstreamSidecar()},
      {.name = "UpstreamControllerOursSidecar",
       .tag = "up-ours",
       .controller = UpstreamController(),
       .sidecar = OurSidecar()},
      {.name = "UpstreamUpstream",
       .tag = "up-up",
       .controller = UpstreamController(),
       .sidecar = UpstreamSidecar()},
  };
}

void ControllerPairTest::CreateDefaultSnapshotClass(const std::string& name,
                                                    const std::string& driver,
                                                    const std::string& deletion_policy) {
  kube::VolumeSnapshotClass snapshot_class;
  snapshot_class.metadata.name = name;
  snapshot_class.metadata.annotations["snapshot.storage.kubernetes.io/is-default-class"] = "true";
  snapshot_class.driver = driver;
  snapshot_class.deletion_policy = deletion_policy;
  auto created = admin_->Create(snapshot_class);
  ASSERT_TRUE(created.ok()) << "create default VolumeSnapshotClass: " << created.error().message;
}

}  // namespace snapshot_it
