// Expansions upstream's resizer and ours must carry out alike
// (docs/resizer.md §4): a driver that needs no node step finishes the claim
// itself; a driver's refusal leaves the claim infeasible and a lowered
// request is asked at once (KEP-1790 recovery).
#include <gtest/gtest.h>

#include "tests/integration/resizer/resizer_fixture.h"
#include "tests/support/csi_driver_records.h"

namespace resizer_it {
namespace {

using nlohmann::json;

class ResizeTest : public ResizerTest {
 protected:
  // A bound claim `base` of 1Gi whose driver volume holds `driver_bytes`,
  // with the mock driver and the resizer under test running.
  void StartWithClaim(const std::string& base, int64_t driver_bytes,
                      std::vector<std::string> resizer_args = {}) {
    const std::string driver = DriverFor(base);
    ASSERT_NO_FATAL_FAILURE(StartMockDriver(driver));
    const std::string volume = CreateDriverVolume(Own(base), driver_bytes);
    ASSERT_FALSE(volume.empty());
    ASSERT_NO_FATAL_FAILURE(CreateExpandableClass(Own(base), driver));
    ASSERT_TRUE(CreateBoundClaim({.name = Own(base),
                                  .storage_class = Own(base),
                                  .driver = driver,
                                  .volume_handle = volume})
                    .is_object());
    ASSERT_NE(StartResizer(std::move(resizer_args)), nullptr);
  }
};

// §4.4 step 6, node_expansion_required false.
TEST_P(ResizeTest, ExpansionWithoutNodeStepFinishesTheClaim) {
  ASSERT_NO_FATAL_FAILURE(StartWithClaim("grow", kGi));
  const std::string claim = Own("grow");
  ASSERT_TRUE(RequestSize(claim, "2Gi").ok());

  json done = AwaitClaim(
      claim, [](const json& c) { return StatusString(c, "/status/capacity/storage") == "2Gi"; });
  EXPECT_EQ(StatusString(done, "/status/capacity/storage"), "2Gi") << done.dump();
  EXPECT_EQ(StatusString(done, "/status/allocatedResources/storage"), "2Gi");
  EXPECT_EQ(StatusString(done, "/status/allocatedResourceStatuses/storage"), "");
  EXPECT_EQ(
      StatusString(done, "/metadata/annotations/volume.kubernetes.io~1node-expansion-not-required"),
      "true");
  EXPECT_FALSE(HasTrueCondition(done, "Resizing")) << done.dump();
  EXPECT_EQ(StatusString(GetPv("pv-" + claim), "/spec/capacity/storage"), "2Gi");
  auto started = AwaitClaimEvent(claim, "Resizing");
  ASSERT_TRUE(started.has_value());
  EXPECT_EQ(started->type, "Normal");
  EXPECT_EQ(started->message, "External resizer is resizing volume pv-" + claim);
  auto succeeded = AwaitClaimEvent(claim, "VolumeResizeSuccessful");
  ASSERT_TRUE(succeeded.has_value());
  EXPECT_EQ(succeeded->message, "Resize volume succeeded");
  EXPECT_EQ(succeeded->source.component, "external-resizer " + DriverFor("grow"));
  EXPECT_GE(DriverCalls("ControllerExpandVolume"), 1);
}

// §4.4 step 6, node_expansion_required true: the fault driver grows the
// volume and asks for the node step; the claim is left for kubelet with
// NodeResizePending and FileSystemResizePending (Resizing kept beside it),
// the PV at the new size, status.capacity still the old one.
TEST_P(ResizeTest, NodeStepLeavesTheClaimFileSystemResizePending) {
  const std::string driver = DriverFor("node-step");
  ASSERT_NO_FATAL_FAILURE(StartFaultDriverWithFaults(
      driver, R"({"ControllerExpandVolume": [{"node_expansion_required": true}]})",
      {"--capabilities=EXPAND_VOLUME"}));
  const std::string claim = Own("node-step");
  const std::string volume = CreateDriverVolume(claim, kGi);
  ASSERT_FALSE(volume.empty());
  ASSERT_NO_FATAL_FAILURE(CreateExpandableClass(claim, driver));
  ASSERT_TRUE(
      CreateBoundClaim(
          {.name = claim, .storage_class = claim, .driver = driver, .volume_handle = volume})
          .is_object());
  ASSERT_NE(StartResizer(), nullptr);
  ASSERT_TRUE(RequestSize(claim, "2Gi").ok());

  json pending = AwaitClaim(
      claim, [](const json& c) { return HasTrueCondition(c, "FileSystemResizePending"); });
  EXPECT_TRUE(HasTrueCondition(pending, "FileSystemResizePending")) << pending.dump();
  EXPECT_EQ(StatusString(pending, "/status/allocatedResourceStatuses/storage"),
            "NodeResizePending");
  EXPECT_EQ(StatusString(pending, "/status/allocatedResources/storage"), "2Gi");
  EXPECT_EQ(StatusString(pending, "/status/capacity/storage"), "1Gi");
  // Upstream's node-pending patch keeps Resizing beside FileSystemResizePending.
  EXPECT_TRUE(HasTrueCondition(pending, "Resizing")) << pending.dump();
  EXPECT_EQ(StatusString(GetPv("pv-" + claim), "/spec/capacity/storage"), "2Gi");
  auto required = AwaitClaimEvent(claim, "FileSystemResizeRequired");
  ASSERT_TRUE(required.has_value());
  EXPECT_EQ(required->type, "Normal");
}

// §4.4 step 5 (infeasible) and §4.3 recovery: the mock refuses to make its
// 3Gi volume 2Gi (InvalidArgument); the user lowers the request, and the
// lower size is asked at once, not after --retry-interval-max (5m here).
TEST_P(ResizeTest, RefusedExpansionIsInfeasibleAndALoweredRequestIsAskedAtOnce) {
  ASSERT_NO_FATAL_FAILURE(StartWithClaim("refuse", 3 * kGi, {"--retry-interval-max=5m"}));
  const std::string claim = Own("refuse");
  ASSERT_TRUE(RequestSize(claim, "2Gi").ok());

  json refused = AwaitClaim(claim, [](const json& c) {
    return StatusString(c, "/status/allocatedResourceStatuses/storage") ==
           "ControllerResizeInfeasible";
  });
  EXPECT_EQ(StatusString(refused, "/status/allocatedResourceStatuses/storage"),
            "ControllerResizeInfeasible")
      << refused.dump();
  EXPECT_EQ(StatusString(refused, "/status/allocatedResources/storage"), "2Gi");
  EXPECT_TRUE(HasTrueCondition(refused, "ControllerResizeError")) << refused.dump();
  EXPECT_EQ(StatusString(refused, "/status/capacity/storage"), "1Gi");
  auto failed = AwaitClaimEvent(claim, "VolumeResizeFailed");
  ASSERT_TRUE(failed.has_value());
  EXPECT_EQ(failed->type, "Warning");
  EXPECT_EQ(failed->message,
            "resize volume \"pv-" + claim + "\" by resizer \"" + DriverFor("refuse") +
                "\" failed: rpc error: code = InvalidArgument desc = cannot change volume "
                "capacity to a smaller size");
  EXPECT_EQ(StatusString(GetPv("pv-" + claim), "/spec/capacity/storage"), "1Gi");

  ASSERT_TRUE(RequestSize(claim, "1536Mi").ok());
  json lowered = AwaitClaim(claim, [](const json& c) {
    return StatusString(c, "/status/allocatedResources/storage") == "1536Mi";
  });
  EXPECT_EQ(StatusString(lowered, "/status/allocatedResources/storage"), "1536Mi")
      << lowered.dump();
}

// §4.4 step 4: the PV's controllerExpandSecretRef is read before the call; a
// Secret that cannot be read fails the expansion without asking the driver.
TEST_P(ResizeTest, UnreadableExpandSecretFailsWithoutCallingTheDriver) {
  const std::string base = "nosecret";
  const std::string driver = DriverFor(base);
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(driver));
  const std::string volume = CreateDriverVolume(Own(base), kGi);
  ASSERT_NO_FATAL_FAILURE(CreateExpandableClass(Own(base), driver));
  ASSERT_TRUE(CreateBoundClaim({.name = Own(base),
                                .storage_class = Own(base),
                                .driver = driver,
                                .volume_handle = volume,
                                .expand_secret = std::pair{"default", "missing-" + Own(base)}})
                  .is_object());
  ASSERT_NE(StartResizer(), nullptr);
  ASSERT_TRUE(RequestSize(Own(base), "2Gi").ok());

  auto failed = AwaitClaimEvent(Own(base), "VolumeResizeFailed");
  ASSERT_TRUE(failed.has_value());
  EXPECT_NE(
      failed->message.find("error getting secret missing-" + Own(base) + " in namespace default"),
      std::string::npos)
      << failed->message;
  EXPECT_EQ(DriverCalls("ControllerExpandVolume", "OK"), 0);
  EXPECT_EQ(StatusString(GetPv("pv-" + Own(base)), "/spec/capacity/storage"), "1Gi");
}

// The same with the Secret readable (the operator's grant): the expansion
// goes through.
TEST_P(ResizeTest, ReadableExpandSecretLetsTheExpansionFinish) {
  const std::string base = "secret";
  const std::string ns = "resizer-secrets";
  ASSERT_NO_FATAL_FAILURE(GrantSecretRead(ns));
  ASSERT_NO_FATAL_FAILURE(CreateSecret(ns, Own(base), {{"password", "hunter2"}}));
  const std::string driver = DriverFor(base);
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(driver));
  const std::string volume = CreateDriverVolume(Own(base), kGi);
  ASSERT_NO_FATAL_FAILURE(CreateExpandableClass(Own(base), driver));
  ASSERT_TRUE(CreateBoundClaim({.name = Own(base),
                                .storage_class = Own(base),
                                .driver = driver,
                                .volume_handle = volume,
                                .expand_secret = std::pair{ns, Own(base)}})
                  .is_object());
  ASSERT_NE(StartResizer(), nullptr);
  ASSERT_TRUE(RequestSize(Own(base), "2Gi").ok());

  json done = AwaitClaim(Own(base), [](const json& c) {
    return StatusString(c, "/status/capacity/storage") == "2Gi";
  });
  EXPECT_EQ(StatusString(done, "/status/capacity/storage"), "2Gi") << done.dump();
  EXPECT_EQ(DriverCalls("ControllerExpandVolume", "OK"), 1);
}

// §4.6, the in-use gate: the driver refuses an expansion as in use
// (FailedPrecondition, once); while a Pod that has not ended uses the claim,
// it is not asked again (Warning VolumeResizeFailed says why); once the Pod
// is gone the expansion goes through.
TEST_P(ResizeTest, InUseRefusalWaitsUntilThePodUsingTheClaimIsGone) {
  const std::string driver = DriverFor("in-use");
  ASSERT_NO_FATAL_FAILURE(StartFaultDriverWithFaults(
      driver,
      R"({"ControllerExpandVolume": [{"code": "FAILED_PRECONDITION", "message": "volume is attached", "times": 1}]})",
      {"--capabilities=EXPAND_VOLUME"}));
  const std::string claim = Own("in-use");
  const std::string volume = CreateDriverVolume(claim, kGi);
  ASSERT_FALSE(volume.empty());
  ASSERT_NO_FATAL_FAILURE(CreateExpandableClass(claim, driver));
  ASSERT_TRUE(
      CreateBoundClaim(
          {.name = claim, .storage_class = claim, .driver = driver, .volume_handle = volume})
          .is_object());
  const std::string pod = "user-" + claim;
  ASSERT_NO_FATAL_FAILURE(CreatePodUsing(pod, claim));
  ASSERT_NE(StartResizer(), nullptr);
  ASSERT_TRUE(RequestSize(claim, "2Gi").ok());

  const std::string held = "Unable to expand default/" + claim + " because CSI driver " + driver +
                           " only supports offline expansion and volume is currently in-use";
  auto warned = AwaitClaimEventWithMessage(claim, "VolumeResizeFailed", held);
  ASSERT_TRUE(warned.has_value()) << "no in-use Warning";
  EXPECT_EQ(warned->type, "Warning");
  EXPECT_EQ(StatusString(GetClaim(claim), "/status/capacity/storage"), "1Gi");

  ASSERT_NO_FATAL_FAILURE(DeletePod(pod));
  json done = AwaitClaim(
      claim, [](const json& c) { return StatusString(c, "/status/capacity/storage") == "2Gi"; });
  EXPECT_EQ(StatusString(done, "/status/capacity/storage"), "2Gi") << done.dump();
  const json calls = testsupport::ReadFaultDriverState(DriverStatePath());
  EXPECT_EQ(testsupport::CountFaultDriverCalls(calls, "ControllerExpandVolume", false), 2);
  EXPECT_EQ(testsupport::CountFaultDriverCalls(calls, "ControllerExpandVolume", true), 1);
}

INSTANTIATE_RESIZER_PAIRS(ResizeTest);
INSTANTIATE_RESIZER_IN_CSI_SIDECARS(ResizeTest);

}  // namespace
}  // namespace resizer_it
