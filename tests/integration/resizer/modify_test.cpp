// Modifications upstream's resizer and ours must carry out alike
// (docs/resizer.md §5), with the fault driver as the modifying driver (the
// e2e mock has no ControllerModifyVolume): a class applied and another
// after it; a class that does not exist; a driver's InvalidArgument
// (Infeasible) and the user's way out; a non-final error that is retried.
// And ours alone (§9): a class created after the claim went Pending; a size
// and a class asked for together.
#include <gtest/gtest.h>

#include "tests/integration/resizer/resizer_fixture.h"
#include "tests/support/csi_driver_records.h"
#include "tests/support/free_port.h"
#include "tests/support/http_get.h"

namespace resizer_it {
namespace {

using nlohmann::json;

class ModifyTest : public ResizerTest {
 protected:
  // A bound claim `base` on the fault driver (expansion and modification),
  // faults.json `faults`, and the resizer under test running with
  // `resizer_args`.
  void StartWithClaim(const std::string& base, const std::string& faults = "{}",
                      std::vector<std::string> resizer_args = {}) {
    driver_name_ = DriverFor(base);
    ASSERT_NO_FATAL_FAILURE(StartFaultDriverWithFaults(
        driver_name_, faults, {"--capabilities=EXPAND_VOLUME,MODIFY_VOLUME"}));
    claim_ = Own(base);
    const std::string volume = CreateDriverVolume(claim_, kGi);
    ASSERT_FALSE(volume.empty());
    ASSERT_NO_FATAL_FAILURE(CreateExpandableClass(claim_, driver_name_));
    ASSERT_TRUE(CreateBoundClaim({.name = claim_,
                                  .storage_class = claim_,
                                  .driver = driver_name_,
                                  .volume_handle = volume})
                    .is_object());
    ASSERT_NE(StartResizer(std::move(resizer_args)), nullptr);
  }
  // The mutable_parameters of every ControllerModifyVolume the driver got.
  std::vector<json> ModifyCalls() const {
    std::vector<json> calls;
    json state = testsupport::ReadFaultDriverState(DriverStatePath());
    for (const json& call : state.value("calls", json::array())) {
      if (call.value("method", "") == "ControllerModifyVolume") {
        calls.push_back(call["request"].value("mutable_parameters", json::object()));
      }
    }
    return calls;
  }
  // Waits until the claim's current class is `klass` and nothing is under way.
  json AwaitCurrentClass(const std::string& klass) {
    return AwaitClaim(claim_, [&](const json& c) {
      return StatusString(c, "/status/currentVolumeAttributesClassName") == klass &&
             !c["status"].contains("modifyVolumeStatus");
    });
  }
  static std::string ConditionMessage(const json& claim, const std::string& type) {
    for (const json& c : claim["status"].value("conditions", json::array())) {
      if (c.value("type", "") == type) return c.value("message", "");
    }
    return "";
  }
  static std::string ConditionReason(const json& claim, const std::string& type) {
    for (const json& c : claim["status"].value("conditions", json::array())) {
      if (c.value("type", "") == type) return c.value("reason", "");
    }
    return "";
  }

  std::string driver_name_;
  std::string claim_;
};

// §5.2-§5.4: a class applied, then another: the claim's current class and
// the PV's follow, the driver gets each class's parameters, the Events
// say so.
TEST_P(ModifyTest, ClassAppliedThenAnotherOneRecordsEachOnClaimAndPv) {
  ASSERT_NO_FATAL_FAILURE(StartWithClaim("modify"));
  ASSERT_NO_FATAL_FAILURE(CreateAttributesClass(Own("gold"), driver_name_, {{"iops", "3000"}}));
  ASSERT_NO_FATAL_FAILURE(CreateAttributesClass(Own("silver"), driver_name_, {{"iops", "500"}}));
  ASSERT_TRUE(RequestClass(claim_, Own("gold")).ok());

  json gold = AwaitCurrentClass(Own("gold"));
  EXPECT_EQ(StatusString(gold, "/status/currentVolumeAttributesClassName"), Own("gold"))
      << gold.dump();
  EXPECT_EQ(ConditionMessage(gold, "ModifyingVolume"), "") << gold.dump();
  EXPECT_EQ(StatusString(GetPv("pv-" + claim_), "/spec/volumeAttributesClassName"), Own("gold"));
  auto modifying = AwaitClaimEvent(claim_, "VolumeModify");
  ASSERT_TRUE(modifying.has_value());
  EXPECT_EQ(modifying->message,
            "external resizer is modifying volume " + claim_ + " with vac " + Own("gold"));
  auto modified = AwaitClaimEvent(claim_, "VolumeModifySuccessful");
  ASSERT_TRUE(modified.has_value());
  EXPECT_EQ(modified->message, "external resizer modified volume " + claim_ + " with vac " +
                                   Own("gold") + " successfully");
  EXPECT_EQ(modified->source.component, "external-resizer " + driver_name_);

  ASSERT_TRUE(RequestClass(claim_, Own("silver")).ok());
  json silver = AwaitCurrentClass(Own("silver"));
  EXPECT_EQ(StatusString(silver, "/status/currentVolumeAttributesClassName"), Own("silver"))
      << silver.dump();
  EXPECT_EQ(StatusString(GetPv("pv-" + claim_), "/spec/volumeAttributesClassName"), Own("silver"));
  const std::vector<json> calls = ModifyCalls();
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0], json({{"iops", "3000"}}));
  EXPECT_EQ(calls[1], json({{"iops", "500"}}));
}

// §5.2 step 5: a class that does not exist: Pending, a Warning, no call.
TEST_P(ModifyTest, MissingClassLeavesTheClaimPendingWithAWarning) {
  ASSERT_NO_FATAL_FAILURE(StartWithClaim("missing"));
  ASSERT_TRUE(RequestClass(claim_, Own("absent")).ok());
  json pending = AwaitClaim(claim_, [](const json& c) {
    return StatusString(c, "/status/modifyVolumeStatus/status") == "Pending";
  });
  EXPECT_EQ(StatusString(pending, "/status/modifyVolumeStatus/status"), "Pending")
      << pending.dump();
  auto failed = AwaitClaimEvent(claim_, "VolumeModifyFailed");
  ASSERT_TRUE(failed.has_value());
  EXPECT_EQ(failed->type, "Warning");
  EXPECT_EQ(failed->message, "VAC \"" + Own("absent") + "\" does not exist.");
  EXPECT_TRUE(ModifyCalls().empty());
}

// §5.4: InvalidArgument is Infeasible, with ModifyingVolume and
// ModifyVolumeError; the user's way out is another class, applied at once.
TEST_P(ModifyTest, InvalidArgumentIsInfeasibleAndAnotherClassIsApplied) {
  ASSERT_NO_FATAL_FAILURE(StartWithClaim(
      "infeasible",
      R"({"ControllerModifyVolume": [{"code": "INVALID_ARGUMENT", "message": "iops out of range"}]})"));
  ASSERT_NO_FATAL_FAILURE(CreateAttributesClass(Own("huge"), driver_name_, {{"iops", "999999"}}));
  ASSERT_NO_FATAL_FAILURE(CreateAttributesClass(Own("fine"), driver_name_, {{"iops", "100"}}));
  ASSERT_TRUE(RequestClass(claim_, Own("huge")).ok());

  json infeasible = AwaitClaim(claim_, [](const json& c) {
    return StatusString(c, "/status/modifyVolumeStatus/status") == "Infeasible";
  });
  EXPECT_EQ(StatusString(infeasible, "/status/modifyVolumeStatus/status"), "Infeasible")
      << infeasible.dump();
  EXPECT_EQ(StatusString(infeasible, "/status/modifyVolumeStatus/targetVolumeAttributesClassName"),
            Own("huge"));
  EXPECT_EQ(ConditionMessage(infeasible, "ModifyingVolume"),
            "Modifying volume to \"" + Own("huge") + "\" failed. Waiting for retry.");
  EXPECT_EQ(ConditionReason(infeasible, "ModifyVolumeError"), "InvalidArgument");
  EXPECT_EQ(ConditionMessage(infeasible, "ModifyVolumeError"), "iops out of range");
  EXPECT_EQ(StatusString(GetPv("pv-" + claim_), "/spec/volumeAttributesClassName"), "");
  auto failed = AwaitClaimEvent(claim_, "VolumeModifyFailed");
  ASSERT_TRUE(failed.has_value());
  EXPECT_EQ(failed->message, "rpc error: code = InvalidArgument desc = iops out of range");

  SetFaults("{}");
  ASSERT_TRUE(RequestClass(claim_, Own("fine")).ok());
  json fine = AwaitCurrentClass(Own("fine"));
  EXPECT_EQ(StatusString(fine, "/status/currentVolumeAttributesClassName"), Own("fine"))
      << fine.dump();
  EXPECT_EQ(ConditionMessage(fine, "ModifyVolumeError"), "") << fine.dump();
  EXPECT_EQ(StatusString(GetPv("pv-" + claim_), "/spec/volumeAttributesClassName"), Own("fine"));
}

// §5.4: a non-final error keeps the claim InProgress with its target, the
// Warning says the modification goes on, and the retry finishes it.
TEST_P(ModifyTest, NonFinalErrorIsRetriedToTheSameClass) {
  ASSERT_NO_FATAL_FAILURE(StartWithClaim(
      "transient",
      R"({"ControllerModifyVolume": [{"code": "UNAVAILABLE", "message": "backend busy", "times": 1}]})"));
  ASSERT_NO_FATAL_FAILURE(CreateAttributesClass(Own("steady"), driver_name_, {{"iops", "3000"}}));
  ASSERT_TRUE(RequestClass(claim_, Own("steady")).ok());

  json done = AwaitCurrentClass(Own("steady"));
  EXPECT_EQ(StatusString(done, "/status/currentVolumeAttributesClassName"), Own("steady"))
      << done.dump();
  auto failed = AwaitClaimEvent(claim_, "VolumeModifyFailed");
  ASSERT_TRUE(failed.has_value());
  EXPECT_EQ(failed->message,
            "rpc error: code = Unavailable desc = backend busy. Still modifying "
            "to VAC " +
                Own("steady"));
  EXPECT_EQ(ModifyCalls().size(), 2u);
}

INSTANTIATE_RESIZER_PAIRS(ModifyTest);
INSTANTIATE_RESIZER_IN_CSI_SIDECARS(ModifyTest);

// Ours only (docs/resizer.md §9): a class created after the claim went
// Pending for want of it is applied without any change to the claim
// (upstream waits for one, or for a restart).
class ModifyImprovementTest : public ModifyTest {};

TEST_P(ModifyImprovementTest, ClassCreatedAfterTheClaimWentPendingIsApplied) {
  ASSERT_NO_FATAL_FAILURE(StartWithClaim("late-class"));
  ASSERT_TRUE(RequestClass(claim_, Own("late")).ok());
  json pending = AwaitClaim(claim_, [](const json& c) {
    return StatusString(c, "/status/modifyVolumeStatus/status") == "Pending";
  });
  ASSERT_EQ(StatusString(pending, "/status/modifyVolumeStatus/status"), "Pending")
      << pending.dump();
  ASSERT_NO_FATAL_FAILURE(CreateAttributesClass(Own("late"), driver_name_, {{"tier", "fast"}}));
  json done = AwaitCurrentClass(Own("late"));
  EXPECT_EQ(StatusString(done, "/status/currentVolumeAttributesClassName"), Own("late"))
      << done.dump();
  EXPECT_EQ(ModifyCalls(), std::vector<json>{json({{"tier", "fast"}})});
}

// §9 (#458): a size and a class asked for in one change are both applied
// without a refused write, so the claims' queue never retries (upstream's
// two controllers write the claim at once; one is refused as a Conflict and
// waits out its error backoff).
TEST_P(ModifyImprovementTest, SizeAndClassAskedTogetherAreAppliedWithoutARetry) {
  base::Result<int> port = testsupport::PickFreeLoopbackPort();
  ASSERT_TRUE(port.ok()) << port.error().message;
  ASSERT_NO_FATAL_FAILURE(
      StartWithClaim("together", "{}", {"--http-endpoint=127.0.0.1:" + std::to_string(*port)}));
  ASSERT_NO_FATAL_FAILURE(CreateAttributesClass(Own("together"), driver_name_, {{"tier", "gold"}}));
  ASSERT_TRUE(PatchClaim(claim_, {{"spec",
                                   {{"resources", {{"requests", {{"storage", "2Gi"}}}}},
                                    {"volumeAttributesClassName", Own("together")}}}})
                  .ok());
  json done = AwaitClaim(claim_, [&](const json& c) {
    return StatusString(c, "/status/capacity/storage") == "2Gi" &&
           StatusString(c, "/status/currentVolumeAttributesClassName") == Own("together");
  });
  ASSERT_EQ(StatusString(done, "/status/capacity/storage"), "2Gi") << done.dump();
  ASSERT_EQ(StatusString(done, "/status/currentVolumeAttributesClassName"), Own("together"))
      << done.dump();
  const std::string body = testsupport::HttpBody(testsupport::HttpGet(*port, "/metrics"));
  EXPECT_EQ(testsupport::SeriesValue(body, "workqueue_retries_total",
                                     {"name=\"" + driver_name_ + "-pvc\""}),
            0.0)
      << body;
}

INSTANTIATE_TEST_SUITE_P(Resizers, ModifyImprovementTest, ::testing::Values(OurResizer()),
                         [](const ::testing::TestParamInfo<ResizerUnderTest>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace resizer_it
