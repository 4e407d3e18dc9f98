// docs/resizer.md §5: ModifyController run over fake claim, PV and
// VolumeAttributesClass sources with one worker, a scripted modifier, a
// recording API and recorded Events. Every wait is on the call log with a
// deadline; a claim that must be left alone is proved so by a sentinel claim
// queued behind it (one worker: once the sentinel's modification is logged,
// the claim before it was synced).
#include "resizer/modify_controller.h"

#include <grpcpp/support/status_code_enum.h>
#include <gtest/gtest.h>

#include <deque>
#include <optional>
#include <thread>

#include "kube/runtime/run_controllers.h"
#include "resizer/names.h"
#include "tests/support/cluster_polls.h"
#include "tests/support/fake_lister_watcher.h"
#include "tests/unit/resizer/controller_fakes.h"

namespace resizer {
namespace {

using namespace std::chrono_literals;
using kube::WatchEventType;
using testing::BoundClaim;
using testing::CallLog;
using testing::kResizeDriver;
using testing::LoggedEvents;
using testing::RecordingApi;
using testing::ScriptedModifier;
using testing::VolumeOf;

// A bound claim of 1Gi asking for the class `wanted`.
kube::PersistentVolumeClaim ClaimWanting(const std::string& name, const std::string& wanted) {
  kube::PersistentVolumeClaim claim = BoundClaim(name, "1Gi");
  claim.spec.volume_attributes_class_name = wanted;
  return claim;
}

kube::PersistentVolumeClaim InProgressTo(kube::PersistentVolumeClaim claim,
                                         const std::string& target,
                                         std::string status = std::string(kModifyInProgress)) {
  claim.status.modify_volume_status =
      kube::ModifyVolumeStatus{.target_volume_attributes_class_name = target, .status = status};
  return claim;
}

kube::VolumeAttributesClass Class(const std::string& name, kube::StringMap parameters) {
  kube::VolumeAttributesClass klass;
  klass.metadata.name = name;
  klass.metadata.resource_version = "1";
  klass.driver_name = kResizeDriver;
  klass.parameters = std::move(parameters);
  return klass;
}

class ModifyControllerTest : public ::testing::Test {
 protected:
  void Start(std::vector<kube::PersistentVolumeClaim> claims,
             std::vector<kube::PersistentVolume> volumes,
             std::vector<kube::VolumeAttributesClass> classes) {
    for (const kube::PersistentVolumeClaim& claim : claims) api_.Remember(claim);
    claims_.SetItems(std::move(claims));
    volumes_.SetItems(std::move(volumes));
    classes_.SetItems(std::move(classes));
    informers_.UseSource(claims_);
    informers_.UseSource(volumes_);
    informers_.UseSource(classes_);
    ModifyControllerOptions options{.loop = {.worker_threads = 1,
                                             .retry_interval_start = 10ms,
                                             .retry_interval_max = 50ms,
                                             .resync_period = 0ms},
                                    .extra_modify_metadata = extra_modify_metadata_};
    controller_.emplace(kResizeDriver, options, informers_, turns_, api_, modifier_, events_,
                        nullptr, base::Clock::Real());
    run_ = std::jthread(
        [this](std::stop_token stop) { kube::RunWithInformers(informers_, stop, *controller_); });
  }
  void TearDown() override {
    run_.request_stop();
    if (run_.joinable()) run_.join();
  }
  // A claim wanting the class "sentinel" sent after everything else;
  // returns once it was modified, so every claim queued before was synced.
  void Settle() {
    kube::PersistentVolumeClaim sentinel = ClaimWanting("sentinel", "sentinel");
    api_.Remember(sentinel);
    classes_.Send(WatchEventType::kAdded, Class("sentinel", {}));
    volumes_.Send(WatchEventType::kAdded, VolumeOf(sentinel));
    claims_.Send(WatchEventType::kAdded, sentinel);
    ASSERT_TRUE(log_.Await("MODIFY pv-sentinel")) << log_.Dump();
  }

  CallLog log_;
  RecordingApi api_{log_};
  ScriptedModifier modifier_{log_};
  LoggedEvents events_{log_};
  testsupport::FakeListerWatcher<kube::PersistentVolumeClaim> claims_;
  testsupport::FakeListerWatcher<kube::PersistentVolume> volumes_;
  testsupport::FakeListerWatcher<kube::VolumeAttributesClass> classes_;
  kube::InformerSet informers_{kube::ReflectorOptions{}};
  ClaimTurns turns_;
  bool extra_modify_metadata_ = false;
  std::optional<ModifyController> controller_;
  std::jthread run_;
};

// §5.2-§5.4 in upstream's order: InProgress with RV, VolumeModify, the call
// with the class's parameters, the PV's class, then the claim's (no RV).
TEST_F(ModifyControllerTest, ClassChangeIsAppliedInUpstreamsOrder) {
  kube::PersistentVolumeClaim claim = ClaimWanting("gold", "gold");
  Start({claim}, {VolumeOf(claim)}, {Class("gold", {{"iops", "300"}})});
  api_.Remember(InProgressTo(claim, "gold"));  // the claim as the first patch writes it
  ASSERT_TRUE(log_.Await("VolumeModifySuccessful")) << log_.Dump();
  const int marked = log_.IndexOf(
      R"(PATCH-STATUS ns/gold {"metadata":{"resourceVersion":"1"},"status":{"conditions":[{"lastProbeTime":)");
  const int in_progress = log_.IndexOf(
      R"("message":"Modifying volume to \"gold\" is in progress.","status":"True","type":"ModifyingVolume"}],"modifyVolumeStatus":{"status":"InProgress","targetVolumeAttributesClassName":"gold"}}})");
  const int event = log_.IndexOf(
      "EVENT Normal gold VolumeModify: external resizer is modifying volume gold with vac gold");
  const int modified = log_.IndexOf("MODIFY pv-gold params=iops=300, secrets=");
  const int pv = log_.IndexOf(R"(PATCH-PV pv-gold {"spec":{"volumeAttributesClassName":"gold"}})");
  const int finished = log_.IndexOf(
      R"(PATCH-STATUS ns/gold {"status":{"currentVolumeAttributesClassName":"gold","modifyVolumeStatus":null}})");
  const int succeeded = log_.IndexOf(
      "EVENT Normal gold VolumeModifySuccessful: external resizer modified volume gold with vac "
      "gold successfully");
  EXPECT_TRUE(marked >= 0 && marked == in_progress && in_progress < event && event < modified &&
              modified < pv && pv < finished && finished < succeeded)
      << log_.Dump();
}

// §5.2 step 5: a class that does not exist: Warning, Pending without conditions,
// no call. Unlike upstream (§9), the class's creation queues the claim.
TEST_F(ModifyControllerTest, MissingClassMarksPendingAndItsCreationQueuesTheClaim) {
  kube::PersistentVolumeClaim claim = ClaimWanting("later", "later");
  Start({claim}, {VolumeOf(claim)}, {});
  ASSERT_TRUE(log_.Await(R"("modifyVolumeStatus":{"status":"Pending"})")) << log_.Dump();
  EXPECT_NE(
      log_.IndexOf(
          R"(PATCH-STATUS ns/later {"metadata":{"resourceVersion":"1"},"status":{"modifyVolumeStatus":{"status":"Pending"}}})"),
      -1)
      << log_.Dump();
  EXPECT_NE(log_.IndexOf("EVENT Warning later VolumeModifyFailed: VAC \"later\" does not exist."),
            -1)
      << log_.Dump();
  // The API server's answer reaches the cache; being Pending, it is not
  // queued again by itself (§5.1).
  kube::PersistentVolumeClaim pending = InProgressTo(claim, "", std::string(kModifyPending));
  pending.metadata.resource_version = "2";
  claims_.Send(WatchEventType::kModified, pending);
  kube::Store<kube::PersistentVolumeClaim>& cached =
      informers_.StoreOf<kube::PersistentVolumeClaim>();
  ASSERT_TRUE(testsupport::PollUntil(
      [&] {
        auto seen = cached.GetByKey("ns/later");
        return seen && seen->metadata.resource_version == "2";
      },
      10s));
  classes_.Send(WatchEventType::kAdded, Class("later", {{"tier", "fast"}}));
  ASSERT_TRUE(log_.Await("MODIFY pv-later params=tier=fast,")) << log_.Dump();
}

// §5.4 errors: InvalidArgument is final and infeasible; both conditions,
// the Warning with the whole error.
TEST_F(ModifyControllerTest, InvalidArgumentIsInfeasibleWithBothConditions) {
  modifier_.Answer(base::Error::Grpc(grpc::StatusCode::INVALID_ARGUMENT,
                                     "rpc error: code = InvalidArgument desc = bad iops"));
  kube::PersistentVolumeClaim claim = ClaimWanting("bad", "gold");
  Start({claim}, {VolumeOf(claim)}, {Class("gold", {{"iops", "999999"}})});
  api_.Remember(InProgressTo(claim, "gold"));
  ASSERT_TRUE(log_.Await("EVENT Warning bad VolumeModifyFailed")) << log_.Dump();
  EXPECT_NE(log_.IndexOf(R"("message":"Modifying volume to \"gold\" failed. Waiting for retry.")"),
            -1)
      << log_.Dump();
  EXPECT_NE(
      log_.IndexOf(
          R"("message":"bad iops","reason":"InvalidArgument","status":"True","type":"ModifyVolumeError"})"),
      -1)
      << log_.Dump();
  EXPECT_NE(log_.IndexOf(R"("modifyVolumeStatus":{"status":"Infeasible"})"), -1) << log_.Dump();
  EXPECT_NE(log_.IndexOf("EVENT Warning bad VolumeModifyFailed: rpc error: code = InvalidArgument "
                         "desc = bad iops"),
            -1)
      << log_.Dump();
  EXPECT_EQ(log_.IndexOf("PATCH-PV"), -1) << log_.Dump();
}

// §5.4 errors: a non-final error keeps InProgress, says so in the Warning,
// and the retry goes on to the same class.
TEST_F(ModifyControllerTest, NonFinalErrorStaysInProgressAndIsRetried) {
  modifier_.Answer(base::Error::Grpc(grpc::StatusCode::UNAVAILABLE,
                                     "rpc error: code = Unavailable desc = busy"));
  kube::PersistentVolumeClaim claim = ClaimWanting("busy", "gold");
  Start({claim}, {VolumeOf(claim)}, {Class("gold", {{"iops", "300"}})});
  api_.Remember(InProgressTo(claim, "gold"));
  ASSERT_TRUE(log_.Await("VolumeModifySuccessful")) << log_.Dump();
  EXPECT_NE(log_.IndexOf(R"("message":"Modifying volume to \"gold\" is still in progress.")"), -1)
      << log_.Dump();
  EXPECT_NE(log_.IndexOf(R"("modifyVolumeStatus":{"status":"InProgress"})"), -1) << log_.Dump();
  EXPECT_NE(log_.IndexOf("EVENT Warning busy VolumeModifyFailed: rpc error: code = Unavailable "
                         "desc = busy. Still modifying to VAC gold"),
            -1)
      << log_.Dump();
}

// §5.2: a claim InProgress when the process starts keeps going to its
// target, even though its class now names another; no InProgress patch
// comes before the call.
TEST_F(ModifyControllerTest, ClaimInProgressAtStartContinuesToItsTarget) {
  kube::PersistentVolumeClaim claim = InProgressTo(ClaimWanting("redirected", "silver"), "gold");
  Start({claim}, {VolumeOf(claim)}, {Class("gold", {{"iops", "300"}}), Class("silver", {})});
  ASSERT_TRUE(log_.Await("VolumeModifySuccessful")) << log_.Dump();
  const int modified = log_.IndexOf("MODIFY pv-redirected params=iops=300,");
  EXPECT_GE(modified, 0) << log_.Dump();
  EXPECT_EQ(log_.IndexOf(R"("status":"InProgress")"), -1) << log_.Dump();
  EXPECT_NE(log_.IndexOf(R"(PATCH-PV pv-redirected {"spec":{"volumeAttributesClassName":"gold"}})"),
            -1)
      << log_.Dump();
}

// §5.2 step 3: the class cleared while not InProgress rolls back: VolumeModifyCanceled
// and the ModifyingVolume condition dropped (no RV), no call.
TEST_F(ModifyControllerTest, ClearedClassRollsBackTheModifyingCondition) {
  kube::PersistentVolumeClaim claim =
      InProgressTo(ClaimWanting("cleared", ""), "gold", "Infeasible");
  claim.status.conditions = {{.type = "ModifyingVolume", .status = "True"}};
  Start({claim}, {VolumeOf(claim)}, {});
  const std::string dropped =
      R"(PATCH-STATUS ns/cleared {"status":{"conditions":[{"$patch":"delete","type":"ModifyingVolume"}]}})";
  ASSERT_TRUE(log_.Await(dropped)) << log_.Dump();
  const int canceled = log_.IndexOf("EVENT Normal cleared VolumeModifyCanceled: Cancelled modify.");
  EXPECT_TRUE(canceled >= 0 && canceled < log_.IndexOf(dropped)) << log_.Dump();
  ASSERT_NO_FATAL_FAILURE(Settle());
  EXPECT_EQ(log_.IndexOf("MODIFY pv-cleared"), -1) << log_.Dump();
}

// §5.3: --extra-modify-metadata adds the claim's and the PV's names.
TEST_F(ModifyControllerTest, ExtraMetadataNamesTheClaimAndThePv) {
  extra_modify_metadata_ = true;
  kube::PersistentVolumeClaim claim = ClaimWanting("meta", "gold");
  Start({claim}, {VolumeOf(claim)}, {Class("gold", {{"iops", "300"}})});
  ASSERT_TRUE(log_.Await("MODIFY pv-meta")) << log_.Dump();
  EXPECT_NE(log_.IndexOf("MODIFY pv-meta params=csi.storage.k8s.io/pv/name=pv-meta,"
                         "csi.storage.k8s.io/pvc/name=meta,csi.storage.k8s.io/pvc/namespace=ns,"
                         "iops=300,"),
            -1)
      << log_.Dump();
}

// §5.3: the Secret named by the PV's modify annotations is read and passed.
TEST_F(ModifyControllerTest, SecretFromThePvsModifyAnnotationsIsPassed) {
  api_.AddSecret("vault", "modify-creds", {{"token", "t0k3n"}});
  kube::PersistentVolumeClaim claim = ClaimWanting("secret", "gold");
  kube::PersistentVolume volume = VolumeOf(claim);
  volume.metadata.annotations[std::string(kModifySecretNameAnnotation)] = "modify-creds";
  volume.metadata.annotations[std::string(kModifySecretNamespaceAnnotation)] = "vault";
  Start({claim}, {volume}, {Class("gold", {})});
  ASSERT_TRUE(log_.Await("MODIFY pv-secret")) << log_.Dump();
  const int read = log_.IndexOf("GET-SECRET vault/modify-creds");
  const int modified = log_.IndexOf("MODIFY pv-secret params= secrets=token,");
  EXPECT_TRUE(read >= 0 && read < modified) << log_.Dump();
}

// §5.2: claims of other drivers, not Bound, or at their class are left alone.
TEST_F(ModifyControllerTest, ClaimsNotOursOrAtTheirClassAreLeftAlone) {
  kube::PersistentVolumeClaim other = ClaimWanting("other", "gold");
  kube::PersistentVolumeClaim unbound = ClaimWanting("unbound", "gold");
  unbound.status.phase = "Pending";
  kube::PersistentVolumeClaim settled = ClaimWanting("settled", "gold");
  settled.status.current_volume_attributes_class_name = "gold";
  Start({other, unbound, settled},
        {VolumeOf(other, "other.csi.example.com"), VolumeOf(unbound), VolumeOf(settled)},
        {Class("gold", {})});
  ASSERT_NO_FATAL_FAILURE(Settle());
  for (const char* name : {"other", "unbound", "settled"}) {
    EXPECT_EQ(log_.IndexOf(std::string("ns/") + name), -1) << name << "\n" << log_.Dump();
    EXPECT_EQ(log_.IndexOf(std::string("MODIFY pv-") + name), -1) << name << "\n" << log_.Dump();
  }
}

// §5.1, as a table: which updates of a claim need a sync.
TEST(ModifyUpdateNeedsSyncTest, ClassChangesAndSettledBoundClaims) {
  const kube::PersistentVolumeClaim bound = ClaimWanting("c", "gold");
  kube::PersistentVolumeClaim other_class = bound;
  other_class.spec.volume_attributes_class_name = "silver";
  const kube::PersistentVolumeClaim in_progress = InProgressTo(bound, "gold");
  kube::PersistentVolumeClaim unbound = bound;
  unbound.status.phase = "Pending";
  struct Case {
    const char* name;
    const kube::PersistentVolumeClaim& from;
    const kube::PersistentVolumeClaim& to;
    bool want;
  };
  const Case cases[] = {
      {"class changed", bound, other_class, true},
      {"no modification under way", bound, bound, true},
      {"same class, modification under way", in_progress, in_progress, false},
      {"class changed while under way", in_progress, other_class, true},
      {"not bound", bound, unbound, false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ModifyUpdateNeedsSync(c.from, c.to), c.want) << c.name;
  }
}

}  // namespace
}  // namespace resizer
