// docs/resizer.md §9, in-tree migration, for upstream's resizer and ours: a
// resizer of pd.csi.storage.gke.io expands a claim bound to an in-tree GCE
// PD once the claim's storage-resizer annotation names the driver (KCM
// writes it when the plugin is migrated), and not before. The driver is
// asked with the translated handle, the PV and the claim grow, and the call
// is counted with migrated="true".
#include <gtest/gtest.h>

#include "tests/integration/resizer/resizer_fixture.h"
#include "tests/support/csi_driver_records.h"
#include "tests/support/free_port.h"
#include "tests/support/http_get.h"

namespace resizer_it {
namespace {

using nlohmann::json;

constexpr char kGcePdDriver[] = "pd.csi.storage.gke.io";
constexpr char kResizerAnnotation[] = "volume.kubernetes.io/storage-resizer";

class MigrationTest : public ResizerTest {
 protected:
  // A claim bound to the in-tree GCE PD "disk-<claim>", 1Gi, asking for 2Gi.
  void CreateGrowingInTreeClaim(const std::string& claim,
                                std::map<std::string, std::string> annotations) {
    ASSERT_TRUE(CreateBoundClaim({.name = claim,
                                  .storage_class = Own("migration"),
                                  .driver = kGcePdDriver,
                                  .volume_handle = "",
                                  .in_tree_gce_pd = "disk-" + claim,
                                  .claim_annotations = std::move(annotations)})
                    .is_object());
    ASSERT_TRUE(RequestSize(claim, "2Gi").ok());
  }
  // The volume IDs of the driver's ControllerExpandVolume calls, in order.
  std::vector<std::string> ExpandedVolumeIds() const {
    std::vector<std::string> ids;
    const json state = testsupport::ReadFaultDriverState(DriverStatePath());
    for (const json& call : state.value("calls", json::array())) {
      if (call.value("method", "") == "ControllerExpandVolume") {
        ids.push_back(call["request"].value("volume_id", ""));
      }
    }
    return ids;
  }
  static std::string TranslatedHandle(const std::string& claim) {
    return std::string("projects/UNSPECIFIED/zones/") + kGceZone + "/disks/disk-" + claim;
  }
};

TEST_P(MigrationTest, InTreeGcePdIsExpandedWithTheTranslatedHandleOnceTheClaimNamesTheDriver) {
  ASSERT_NO_FATAL_FAILURE(
      StartFaultDriverWithFaults(kGcePdDriver, "{}", {"--capabilities=EXPAND_VOLUME"}));
  ASSERT_NO_FATAL_FAILURE(CreateExpandableClass(Own("migration"), kGcePdDriver));
  const std::string named = Own("gce-named");
  const std::string unnamed = Own("gce-unnamed");
  ASSERT_NO_FATAL_FAILURE(CreateGrowingInTreeClaim(named, {{kResizerAnnotation, kGcePdDriver}}));
  ASSERT_NO_FATAL_FAILURE(CreateGrowingInTreeClaim(unnamed, {}));
  base::Result<int> port = testsupport::PickFreeLoopbackPort();
  ASSERT_TRUE(port.ok()) << port.error().message;
  ASSERT_NE(StartResizer({"--http-endpoint=127.0.0.1:" + std::to_string(*port)}), nullptr);

  auto grown = [](const json& c) { return StatusString(c, "/status/capacity/storage") == "2Gi"; };
  json done = AwaitClaim(named, grown);
  ASSERT_EQ(StatusString(done, "/status/capacity/storage"), "2Gi") << done.dump();
  EXPECT_EQ(GetPv("pv-" + named)["spec"]["capacity"]["storage"], "2Gi");
  EXPECT_EQ(ExpandedVolumeIds(), std::vector<std::string>{TranslatedHandle(named)});
  // Both claims were listed at start-up; the one KCM did not name is untouched.
  const json waiting = GetClaim(unnamed);
  EXPECT_EQ(StatusString(waiting, "/status/allocatedResources/storage"), "") << waiting.dump();

  const std::vector<std::string> migrated = {
      "driver_name=\"" + std::string(kGcePdDriver) + "\"", "grpc_status_code=\"OK\"",
      "method_name=\"/csi.v1.Controller/ControllerExpandVolume\"", "migrated=\"true\""};
  const std::string body = AwaitSeries(*port, "csi_sidecar_operations_seconds_count", migrated);
  EXPECT_TRUE(testsupport::HasSeries(body, "csi_sidecar_operations_seconds_count", migrated))
      << body;

  ASSERT_TRUE(
      PatchClaim(unnamed, {{"metadata", {{"annotations", {{kResizerAnnotation, kGcePdDriver}}}}}})
          .ok());
  done = AwaitClaim(unnamed, grown);
  EXPECT_EQ(StatusString(done, "/status/capacity/storage"), "2Gi") << done.dump();
  EXPECT_EQ(ExpandedVolumeIds(),
            (std::vector<std::string>{TranslatedHandle(named), TranslatedHandle(unnamed)}));
}

INSTANTIATE_RESIZER_PAIRS(MigrationTest);

}  // namespace
}  // namespace resizer_it
