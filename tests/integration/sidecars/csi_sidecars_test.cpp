// csi-sidecars with all four controllers in one process (docs/csi-sidecars.md):
// each controller does its work over the one driver connection, one
// endpoint serves every metric once and a health check per Lease, each
// controller holds its Lease under upstream's name; a controller whose
// driver lacks its capability stays off while the others run.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/integration/sidecars/sidecars_fixture.h"
#include "tests/support/free_port.h"
#include "tests/support/http_get.h"

namespace sidecars_it {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

constexpr char kClaims[] = "/api/v1/namespaces/default/persistentvolumeclaims/";
constexpr char kPvs[] = "/api/v1/persistentvolumes/";
constexpr char kVas[] = "/apis/storage.k8s.io/v1/volumeattachments";
constexpr char kContents[] = "/apis/snapshot.storage.k8s.io/v1/volumesnapshotcontents";

std::string StringAt(const json& object, const std::string& pointer) {
  return object.value(json::json_pointer(pointer), std::string());
}

class AllInOneTest : public CsiSidecarsTest {
 protected:
  // The claim `name` of `driver` provisioned and bound; its PV's name.
  std::string ProvisionedPv(const std::string& name, const std::string& driver) {
    CreateClassAndClaim(name, driver);
    if (!ClaimBound(name)) {
      ADD_FAILURE() << "claim " << name << " not bound: " << GetJson(kClaims + name).dump();
      return "";
    }
    return StringAt(GetJson(kClaims + name), "/spec/volumeName");
  }
  // A VolumeAttachment of `pv` on a node whose CSINode names `driver`.
  bool Attaches(const std::string& name, const std::string& driver, const std::string& pv) {
    CreateJson("/apis/storage.k8s.io/v1/csinodes",
               {{"apiVersion", "storage.k8s.io/v1"},
                {"kind", "CSINode"},
                {"metadata", {{"name", name}}},
                {"spec", {{"drivers", {{{"name", driver}, {"nodeID", name}}}}}}});
    CreateJson(
        kVas,
        {{"apiVersion", "storage.k8s.io/v1"},
         {"kind", "VolumeAttachment"},
         {"metadata", {{"name", name}}},
         {"spec",
          {{"attacher", driver}, {"nodeName", name}, {"source", {{"persistentVolumeName", pv}}}}}});
    json va = Await(std::string(kVas) + "/" + name, [](const json& v) {
      return v.value(json::json_pointer("/status/attached"), false);
    });
    return va.value(json::json_pointer("/status/attached"), false);
  }
};

TEST_F(AllInOneTest, FourControllersWorkOverOneDriverConnectionAndOneEndpoint) {
  const std::string driver = "all-four.csi.example.com";
  ASSERT_NO_FATAL_FAILURE(
      StartFaultDriver(driver, {"--capabilities=PUBLISH_UNPUBLISH_VOLUME,EXPAND_VOLUME"}));
  base::Result<int> port = testsupport::PickFreeLoopbackPort();
  ASSERT_TRUE(port.ok()) << port.error().message;
  testsupport::Process* sidecars = StartCsiSidecars(
      {"--controllers=attacher,provisioner,resizer,snapshotter", "--leader-election",
       "--leader-election-namespace=default", "--http-endpoint=127.0.0.1:" + std::to_string(*port),
       "--timeout=10s", "--attacher-worker-threads=2", "--resizer-workers=2"});
  ASSERT_NE(sidecars, nullptr);

  // Provisioner: the claim gets a volume and KCM binds it.
  const std::string pv = ProvisionedPv("all-four", driver);
  ASSERT_FALSE(pv.empty()) << LogOf(*sidecars);
  // Attacher.
  EXPECT_TRUE(Attaches("all-four-node", driver, pv)) << LogOf(*sidecars);
  // Resizer: the PV grows to the claim's new request.
  PatchJson(kClaims + std::string("all-four"),
            {{"spec", {{"resources", {{"requests", {{"storage", "2Gi"}}}}}}}});
  json grown = Await(kPvs + pv,
                     [](const json& p) { return StringAt(p, "/spec/capacity/storage") == "2Gi"; });
  EXPECT_EQ(StringAt(grown, "/spec/capacity/storage"), "2Gi") << LogOf(*sidecars);
  // Snapshotter: a dynamic content of the volume becomes ready.
  CreateJson("/apis/snapshot.storage.k8s.io/v1/volumesnapshotclasses",
             {{"apiVersion", "snapshot.storage.k8s.io/v1"},
              {"kind", "VolumeSnapshotClass"},
              {"metadata", {{"name", "all-four"}}},
              {"driver", driver},
              {"deletionPolicy", "Delete"}});
  CreateJson(kContents,
             {{"apiVersion", "snapshot.storage.k8s.io/v1"},
              {"kind", "VolumeSnapshotContent"},
              {"metadata", {{"name", "all-four"}}},
              {"spec",
               {{"deletionPolicy", "Delete"},
                {"driver", driver},
                {"volumeSnapshotClassName", "all-four"},
                {"source", {{"volumeHandle", StringAt(grown, "/spec/csi/volumeHandle")}}},
                {"volumeSnapshotRef",
                 {{"name", "all-four"},
                  {"namespace", "default"},
                  {"uid", "0a0a0a0a-1111-2222-3333-444444444444"}}}}}});
  json content = Await(std::string(kContents) + "/all-four", [](const json& c) {
    return c.value(json::json_pointer("/status/readyToUse"), false);
  });
  EXPECT_TRUE(content.value(json::json_pointer("/status/readyToUse"), false)) << LogOf(*sidecars);

  // One endpoint: each family once, the calls of all four controllers in it,
  // the driver asked its name and capabilities once for the process.
  const std::string body = testsupport::HttpBody(testsupport::HttpGet(*port, "/metrics"));
  for (const char* method : {"Controller/CreateVolume", "Controller/ControllerPublishVolume",
                             "Controller/ControllerExpandVolume", "Controller/CreateSnapshot"}) {
    EXPECT_TRUE(testsupport::HasSeries(body, "csi_sidecar_operations_seconds_count",
                                       {std::string("method_name=\"/csi.v1.") + method + "\""}))
        << method;
  }
  // Once for the process, where four sidecars ask four times. (The
  // controller's capabilities are also asked at each expansion, as by
  // csi-resizer, so they are not counted here.)
  for (const char* method :
       {"Identity/Probe", "Identity/GetPluginInfo", "Identity/GetPluginCapabilities"}) {
    EXPECT_EQ(testsupport::SeriesValue(body, "csi_sidecar_operations_seconds_count",
                                       {std::string("method_name=\"/csi.v1.") + method + "\""}),
              1)
        << method;
  }
  for (const char* family :
       {"# TYPE csi_sidecar_operations_seconds histogram",
        "# TYPE process_start_time_seconds gauge", "# TYPE workqueue_depth gauge"}) {
    const size_t first = body.find(family);
    ASSERT_NE(first, std::string::npos) << family;
    EXPECT_EQ(body.find(family, first + 1), std::string::npos) << family << " twice";
  }
  // A Lease per controller under upstream's names, held; a health check each.
  for (const std::string& lease : LeasesOf(driver).all()) {
    EXPECT_EQ(HolderOf(lease), "csi-sidecars") << lease;
    EXPECT_EQ(
        testsupport::SeriesValue(body, "leader_election_master_status", {"name=\"" + lease + "\""}),
        1)
        << lease;
    EXPECT_THAT(testsupport::HttpGet(*port, "/healthz/leader-election/" + lease),
                HasSubstr(" 200 "));
  }
  EXPECT_THAT(testsupport::HttpGet(*port, "/healthz/leader-election"), HasSubstr(" 200 "));
  // The provisioner and the resizer share the VolumeAttributesClass gate's
  // discovery, as they share everything else the API server says once.
  const std::string log = LogOf(*sidecars);
  const std::string settled = "VolumeAttributesClass v1 API is available";
  const size_t first = log.find(settled);
  EXPECT_NE(first, std::string::npos) << log;
  EXPECT_EQ(log.find(settled, first + 1), std::string::npos) << "settled twice";
}

TEST_F(AllInOneTest, ControllerWhoseDriverLacksItsCapabilityStaysOffAndTheOthersRun) {
  const std::string driver = "no-expand.csi.example.com";
  // Neither expansion nor snapshots: csi-resizer and csi-snapshotter would exit.
  ASSERT_NO_FATAL_FAILURE(StartFaultDriver(driver, {"--no-snapshots"}));
  testsupport::Process* sidecars =
      StartCsiSidecars({"--controllers=attacher,provisioner,resizer,snapshotter",
                        "--leader-election", "--leader-election-namespace=default"});
  ASSERT_NE(sidecars, nullptr);

  const std::string pv = ProvisionedPv("no-expand", driver);
  ASSERT_FALSE(pv.empty()) << LogOf(*sidecars);
  EXPECT_TRUE(Attaches("no-expand-node", driver, pv)) << LogOf(*sidecars);
  EXPECT_TRUE(sidecars->IsRunning());
  const std::string log = LogOf(*sidecars);
  EXPECT_THAT(log, HasSubstr("\"Controller stays off\" controller=\"resizer\""));
  EXPECT_THAT(log, HasSubstr("\"Controller stays off\" controller=\"snapshotter\""));
  const DriverLeases leases = LeasesOf(driver);
  EXPECT_EQ(HolderOf(leases.attacher), "csi-sidecars");
  EXPECT_EQ(HolderOf(leases.provisioner), "csi-sidecars");
  EXPECT_EQ(HolderOf(leases.resizer), "");
  EXPECT_EQ(HolderOf(leases.snapshotter), "");
}

// Without the snapshot CRDs csi-snapshotter does not exit: its informers
// retry the list until the CRDs appear (docs/snapshots.md §3.2). Inside
// csi-sidecars that failing list must not hold the other controllers back.
class NoSnapshotCrdsTest : public AllInOneTest {
 protected:
  static void SetUpTestSuite() { StartSuite(/*snapshot_crds=*/false); }
};

TEST_F(NoSnapshotCrdsTest, SnapshotterRetriesItsListWhileTheOthersRun) {
  const std::string driver = "no-crds.csi.example.com";
  ASSERT_NO_FATAL_FAILURE(StartFaultDriver(driver, {}));
  testsupport::Process* sidecars =
      StartCsiSidecars({"--controllers=attacher,provisioner,snapshotter", "--leader-election",
                        "--leader-election-namespace=default"});
  ASSERT_NE(sidecars, nullptr);

  const std::string pv = ProvisionedPv("no-crds", driver);
  ASSERT_FALSE(pv.empty()) << LogOf(*sidecars);
  EXPECT_TRUE(Attaches("no-crds-node", driver, pv)) << LogOf(*sidecars);
  EXPECT_TRUE(sidecars->IsRunning());
  const std::string log = LogOf(*sidecars);
  EXPECT_THAT(log, HasSubstr("\"Failed to list or watch, retrying\" "
                             "resource=\"volumesnapshotcontents\""));
  EXPECT_EQ(HolderOf(LeasesOf(driver).snapshotter), "csi-sidecars");
}

}  // namespace
}  // namespace sidecars_it
