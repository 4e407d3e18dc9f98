// docs/provisioner.md §3.1 (which claims), §3.2 (one attempt), §3.8
// (CreateVolume's outcome), §3.10 (Events), §3.11 (retries, the infeasible
// window) and §9.4 (a backoff nothing bypasses): ClaimController run over
// fake claim, class and PV sources with one worker, a scripted driver, a
// recording API and a FakeClock (provisioner_fakes.h).
//
// How the tests know a sync is over without racing the worker: a failed
// sync sets the queue's timer (AwaitTimer), a sync that acts leaves a call in
// the log (log_.Await), and a sync that does nothing is proved over by
// Settle(), which provisions a new claim behind it in the one worker's FIFO.
#include "provisioner/claim_controller.h"

#include <gmock/gmock.h>
#include <grpcpp/support/status_code_enum.h>
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "kube/api/metadata_patch.h"
#include "kube/tools/event_recorder.h"
#include "provisioner_fakes.h"

namespace provisioner {
namespace {

using namespace std::chrono_literals;
using fakes::CreateFails;
using fakes::CreatesWithCapacity;
using fakes::DriverClass;
using fakes::kDriver;
using fakes::kOtherDriver;
using fakes::PendingClaim;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using Pvc = kube::PersistentVolumeClaim;
using kube::WatchEventType;

constexpr std::string_view kSentinelClass = "sentinel";
constexpr std::string_view kIdentity = "1700000000000-8081-fast.csi.example.com";

// The claim every test but the tables provisions: apps/data, volume pvc-uid-1.
constexpr std::string_view kKey = "apps/data";
constexpr std::string_view kVolume = "pvc-uid-1";
Pvc DataClaim() { return PendingClaim("data", "uid-1"); }

// `claim` after another writer changed it (a new resourceVersion).
Pvc Relabeled(Pvc claim) {
  claim.metadata.labels["tier"] = "gold";
  claim.metadata.resource_version = "2";
  return claim;
}

class ClaimControllerTest : public fakes::World {
 protected:
  // Runs the controller with one worker over `claims`, `classes` (the
  // sentinels' class is added) and `volumes`.
  void Start(std::vector<Pvc> claims, std::vector<kube::StorageClass> classes = {DriverClass()},
             std::vector<kube::PersistentVolume> volumes = {}) {
    classes.push_back(DriverClass(std::string(kSentinelClass), "sentinel-class-uid"));
    claims_.SetItems(std::move(claims));
    classes_.SetItems(std::move(classes));
    volumes_.SetItems(std::move(volumes));
    kube::InformerSet& informers = MakeInformers();
    informers.UseSource(claims_);
    ClaimControllerOptions options;
    options.loop.worker_threads = 1;  // retries from 1 s doubling up to 5 min
    controller_.emplace(std::string(kDriver), std::string(kIdentity), capabilities_,
                        std::move(options), informers, api_, driver_, events_, nullptr, clock_);
    RunController(*controller_);
  }

  // Provisions a new claim and waits for its success. With one worker, every
  // claim queued before it has been synced by then, and a sync that was in
  // flight has ended.
  void Settle() {
    const std::string name = "sentinel-" + std::to_string(++sentinels_);
    Send(claims_, WatchEventType::kAdded,
         PendingClaim(name, name + "-uid", std::string(kSentinelClass)));
    ASSERT_TRUE(log_.Await("Succeeded", "apps/" + name));
  }
  // Sends a watch event of `claim` once no sync of it runs, and waits until
  // it has been synced.
  void SendClaimAndSettle(WatchEventType type, const Pvc& claim) {
    ASSERT_NO_FATAL_FAILURE(Settle());
    Send(claims_, type, claim);
    ASSERT_NO_FATAL_FAILURE(Settle());
  }

  // §3.8: CreateVolume of apps/data times out (the driver may still make
  // the volume), then the claim is deleted; the retry at 1 s has been let
  // run until the PV POST.
  void DeleteTheClaimWhileItsVolumeMayBeMade() {
    driver_.ScriptCreate(std::string(kVolume),
                         {CreateFails(grpc::DEADLINE_EXCEEDED, "context deadline exceeded")});
    Start({DataClaim()});
    ASSERT_TRUE(AwaitTimer(kStart + 1s));
    // The deletion's sync finds the claim in backoff: it waits.
    ASSERT_NO_FATAL_FAILURE(SendClaimAndSettle(WatchEventType::kDeleted, Relabeled(DataClaim())));
    EXPECT_EQ(log_.Count("CreateVolume", kVolume), 1u);
    AdvanceToTimer(kStart + 1s);
    ASSERT_TRUE(log_.Await("POST", kVolume));
  }

  testsupport::FakeListerWatcher<Pvc> claims_;
  fakes::FakeClaimEvents events_{log_};
  csi::Capabilities capabilities_{.plugin_services = {csi::PluginService::CONTROLLER_SERVICE},
                                  .controller_rpcs = {csi::ControllerRpc::CREATE_DELETE_VOLUME}};
  std::optional<ClaimController> controller_;
  int sentinels_ = 0;
};

// §3.2, §3.9: one attempt: Provisioning, CreateVolume, the PV POSTed under
// its fixed name, ProvisioningSucceeded - and nothing more.
TEST_F(ClaimControllerTest, ProvisionsAClaimOfItsDriverOnceAndCreatesItsPv) {
  Start({DataClaim()});
  ASSERT_TRUE(log_.Await("Succeeded", kKey));
  ASSERT_NO_FATAL_FAILURE(Settle());
  EXPECT_THAT(log_.Of({kKey, kVolume}),
              ElementsAre("Provisioning apps/data", "CreateVolume pvc-uid-1", "POST pvc-uid-1",
                          "Succeeded apps/data: pvc-uid-1"));
  auto requests = driver_.CreateRequests(std::string(kVolume));
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].capacity_range().required_bytes(), 1LL << 30);
  std::optional<kube::PersistentVolume> pv = api_.Stored(std::string(kVolume));
  ASSERT_TRUE(pv.has_value());
  ASSERT_TRUE(pv->spec.claim_ref.has_value());
  EXPECT_EQ(pv->spec.claim_ref->uid.str(), "uid-1");
  EXPECT_EQ(pv->spec.claim_ref->name, "data");
  EXPECT_EQ(pv->spec.claim_ref->namespace_, "apps");
  ASSERT_TRUE(pv->metadata.annotations.contains(kProvisionedByAnnotation));
  EXPECT_EQ(pv->metadata.annotations.find(kProvisionedByAnnotation)->second, kDriver);
  EXPECT_TRUE(kube::HasFinalizer(pv->metadata, kVolumeFinalizer));
  EXPECT_EQ(pv->spec.capacity_storage, "1Gi");
  const auto* csi = std::get_if<kube::CSIPersistentVolumeSource>(&pv->spec.source);
  ASSERT_NE(csi, nullptr);
  EXPECT_EQ(csi->driver, kDriver);
  EXPECT_EQ(csi->volume_handle, "vol-pvc-uid-1");
}

// §3.1 steps 2 and 5: KCM's other annotation, and a WaitForFirstConsumer
// claim once the scheduler picked its node.
TEST_F(ClaimControllerTest, ProvisionsEveryClaimKcmHandsToTheDriver) {
  Pvc beta = PendingClaim("beta", "uid-beta");
  beta.metadata.annotations.erase(kStorageProvisionerAnnotation);
  beta.metadata.annotations[kBetaStorageProvisionerAnnotation] = std::string(kDriver);
  Pvc scheduled = PendingClaim("scheduled", "uid-scheduled", "late-binding");
  scheduled.metadata.annotations[kSelectedNodeAnnotation] = "node-1";
  kube::StorageClass late_binding = DriverClass("late-binding", "class-uid-2");
  late_binding.volume_binding_mode = std::string(kube::kBindingWaitForFirstConsumer);
  Start({beta, scheduled}, {DriverClass(), late_binding});
  for (const Pvc& claim : {beta, scheduled}) {
    SCOPED_TRACE(claim.metadata.name);
    ASSERT_TRUE(log_.Await("Succeeded", fakes::ClaimKeyOf(claim)));
    EXPECT_EQ(log_.Count("CreateVolume", "pvc-" + claim.metadata.uid.str()), 1u);
  }
}

// §3.1: every "no" is silent - no call, no Event, no retry. (The last row is
// §3.2 step 2: the class names another provisioner.)
TEST_F(ClaimControllerTest, LeavesClaimsThatAreNotItsOwnAloneWithoutAWord) {
  struct Case {
    std::string name;
    std::function<void(Pvc&)> make_it_not_ours;
  };
  const std::vector<Case> cases = {
      {"bound", [](Pvc& c) { c.spec.volume_name = "pv-elsewhere"; }},
      {"other-driver",
       [](Pvc& c) {
         c.metadata.annotations[kStorageProvisionerAnnotation] = std::string(kOtherDriver);
       }},
      {"unannotated", [](Pvc& c) { c.metadata.annotations.erase(kStorageProvisionerAnnotation); }},
      {"waiting-for-node", [](Pvc& c) { c.spec.storage_class_name = "late-binding"; }},
      {"class-of-other-driver", [](Pvc& c) { c.spec.storage_class_name = "theirs"; }},
  };
  kube::StorageClass late_binding = DriverClass("late-binding", "class-uid-2");
  late_binding.volume_binding_mode = std::string(kube::kBindingWaitForFirstConsumer);
  kube::StorageClass theirs = DriverClass("theirs", "class-uid-3");
  theirs.provisioner = std::string(kOtherDriver);
  std::vector<Pvc> claims;
  for (const Case& c : cases) {
    claims.push_back(PendingClaim(c.name, "uid-" + c.name));
    c.make_it_not_ours(claims.back());
  }
  Start(claims, {DriverClass(), late_binding, theirs});
  ASSERT_NO_FATAL_FAILURE(Settle());
  for (const Case& c : cases) {
    EXPECT_THAT(log_.Of({"apps/" + c.name, "pvc-uid-" + c.name}), IsEmpty()) << c.name;
  }
}

// §3.1 step 3: the storage-provisioner annotation must exist; migrated-to
// alone (KCM has not annotated the claim yet) is not enough. Upstream's
// lib shouldProvision returns false when neither storage-provisioner
// annotation is found, whatever ctl's ShouldProvision said about
// migrated-to.
TEST_F(ClaimControllerTest, MigratedToAloneWithoutAStorageProvisionerAnnotationIsNotEnough) {
  Pvc migrated = DataClaim();
  migrated.metadata.annotations.erase(kStorageProvisionerAnnotation);
  migrated.metadata.annotations[kMigratedToAnnotation] = std::string(kDriver);
  Start({migrated});
  ASSERT_NO_FATAL_FAILURE(Settle());
  EXPECT_THAT(log_.Of({kKey, kVolume}), IsEmpty());
}

// §3.1 step 4: a missing class is an error without an Event, retried with
// backoff; once the class is cached, the retry provisions.
// §3.3, upstream's order with two faults: the provisioner Secret is read
// before the PV's other secret templates are resolved, so its absence is
// what is reported, not the namespace template naming the claim.
TEST_F(ClaimControllerTest, MissingProvisionerSecretIsReportedBeforeABadTemplate) {
  kube::StorageClass with_secrets = DriverClass();
  with_secrets.parameters = {{"csi.storage.k8s.io/provisioner-secret-name", "creds"},
                             {"csi.storage.k8s.io/provisioner-secret-namespace", "apps"},
                             {"csi.storage.k8s.io/node-stage-secret-name", "stage"},
                             {"csi.storage.k8s.io/node-stage-secret-namespace", "${pvc.name}"}};
  Start({DataClaim()}, {with_secrets});
  ASSERT_TRUE(log_.Await("Failed", kKey));
  EXPECT_EQ(log_.Count("GetSecret", "apps/creds"), 1u);
  const std::vector<std::string> lines = log_.Of({kKey});
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[1].find("creds"), std::string::npos) << lines[1];
  EXPECT_EQ(lines[1].find("pvc.name"), std::string::npos) << lines[1];
}

TEST_F(ClaimControllerTest, MissingClassIsRetriedWithoutAnEventUntilItAppears) {
  Start({PendingClaim("data", "uid-1", "late")});
  ASSERT_TRUE(AwaitTimer(kStart + 1s));
  EXPECT_THAT(log_.Of({kKey, kVolume}), IsEmpty());
  Send(classes_, WatchEventType::kAdded, DriverClass("late", "class-uid-late"));
  AdvanceToTimer(kStart + 1s);
  ASSERT_TRUE(log_.Await("Succeeded", kKey));
  EXPECT_THAT(log_.Times("CreateVolume", kVolume), ElementsAre(kStart + 1s));
}

// §3.2 step 1: the PV pvc-<uid> in the cache ends the attempt.
TEST_F(ClaimControllerTest, ClaimWhosePvExistsIsLeftAlone) {
  Start({DataClaim()}, {DriverClass()}, {fakes::DriverVolume(std::string(kVolume), "Bound")});
  ASSERT_NO_FATAL_FAILURE(Settle());
  EXPECT_THAT(log_.Of({kKey, kVolume}), IsEmpty());
}

// §3.8 InBackground: a claim deleted while its CreateVolume may still run on
// the driver is retried with its last known version, so the volume the
// driver made gets its PV (and is deleted with it) instead of leaking.
TEST_F(ClaimControllerTest, ClaimDeletedWhileItsVolumeMayBeMadeIsStillProvisioned) {
  ASSERT_NO_FATAL_FAILURE(DeleteTheClaimWhileItsVolumeMayBeMade());
  EXPECT_THAT(log_.Times("CreateVolume", kVolume), ElementsAre(kStart, kStart + 1s));
  std::optional<kube::PersistentVolume> pv = api_.Stored(std::string(kVolume));
  ASSERT_TRUE(pv.has_value());
  ASSERT_TRUE(pv->spec.claim_ref.has_value());
  EXPECT_EQ(pv->spec.claim_ref->uid.str(), "uid-1");
  EXPECT_EQ(log_.Count("Failed", kKey), 1u);
}

// §9.2: before the volume of a claim gone from the cache is made again, a
// live read confirms that the claim is gone.
TEST_F(ClaimControllerTest, VanishedClaimIsConfirmedGoneByALiveReadBeforeItsVolumeIsMadeAgain) {
  ASSERT_NO_FATAL_FAILURE(DeleteTheClaimWhileItsVolumeMayBeMade());
  EXPECT_THAT(log_.Of({kKey, kVolume}),
              ElementsAre("Provisioning apps/data", "CreateVolume pvc-uid-1",
                          "Failed apps/data: context deadline exceeded",
                          // the deletion's sync, then the retry's
                          "GetClaim apps/data", "GetClaim apps/data", "Provisioning apps/data",
                          "CreateVolume pvc-uid-1", "POST pvc-uid-1"));
}

// §9.2: a claim the cache lost but the API server still stores (same UID)
// is taken as stored: bound meanwhile, it needs no second CreateVolume.
TEST_F(ClaimControllerTest, ClaimMissingFromTheCacheButStoredBoundMakesNoSecondCreateVolume) {
  driver_.ScriptCreate(std::string(kVolume),
                       {CreateFails(grpc::DEADLINE_EXCEEDED, "context deadline exceeded")});
  Start({DataClaim()});
  ASSERT_TRUE(AwaitTimer(kStart + 1s));
  Pvc bound = Relabeled(DataClaim());
  bound.spec.volume_name = std::string(kVolume);
  api_.PutClaim(bound);
  ASSERT_NO_FATAL_FAILURE(SendClaimAndSettle(WatchEventType::kDeleted, Relabeled(DataClaim())));
  AdvanceToTimer(kStart + 1s);
  ASSERT_TRUE(log_.Await("GetClaim", kKey));
  ASSERT_NO_FATAL_FAILURE(Settle());
  EXPECT_EQ(log_.Count("CreateVolume", kVolume), 1u);
  EXPECT_EQ(log_.Count("POST", kVolume), 0u);
}

// §9.1 (upstream #486): while CreateVolume's outcome is unknown the claim
// carries the volume-being-created finalizer, so a restarted provisioner
// still finds it; it goes once the PV exists.
TEST_F(ClaimControllerTest, UnknownOutcomeIsRecordedOnTheClaimUntilItsPvExists) {
  const std::string added =
      "apps/data: +external-provisioner.volume.kubernetes.io/volume-being-created";
  const std::string removed =
      "apps/data: -external-provisioner.volume.kubernetes.io/volume-being-created";
  driver_.ScriptCreate(std::string(kVolume),
                       {CreateFails(grpc::DEADLINE_EXCEEDED, "context deadline exceeded")});
  Start({DataClaim()});
  ASSERT_TRUE(log_.Await("FINALIZER", added));
  EXPECT_EQ(log_.Count("POST", kVolume), 0u);
  ASSERT_TRUE(AwaitTimer(kStart + 1s));
  AdvanceToTimer(kStart + 1s);
  ASSERT_TRUE(log_.Await("FINALIZER", removed));
  EXPECT_EQ(log_.Count("POST", kVolume), 1u);
  EXPECT_EQ(log_.Count("FINALIZER", added), 1u);
}

// A final answer ends the record too: nothing runs on the driver any more.
TEST_F(ClaimControllerTest, FinalAnswerAfterAnUnknownOutcomeRemovesTheRecord) {
  const std::string removed =
      "apps/data: -external-provisioner.volume.kubernetes.io/volume-being-created";
  driver_.ScriptCreate(std::string(kVolume),
                       {CreateFails(grpc::DEADLINE_EXCEEDED, "context deadline exceeded"),
                        CreateFails(grpc::INTERNAL, "rpc error: code = Internal desc = broken")});
  Start({DataClaim()});
  ASSERT_TRUE(AwaitTimer(kStart + 1s));
  AdvanceToTimer(kStart + 1s);
  ASSERT_TRUE(log_.Await("FINALIZER", removed));
  EXPECT_EQ(log_.Count("POST", kVolume), 0u);
}

// §3.2 step 5: ProvisioningSucceeded only "if exactly one PVC with that UID is
// in the cache" (lib:vs sendSuccessEvent looks the claim up by UID).
TEST_F(ClaimControllerTest, NoSucceededEventForAClaimNoLongerCached) {
  ASSERT_NO_FATAL_FAILURE(DeleteTheClaimWhileItsVolumeMayBeMade());
  ASSERT_NO_FATAL_FAILURE(Settle());  // the retry's sync has ended
  EXPECT_EQ(log_.Count("Succeeded", kKey), 0u);
}

// §3.11, §3.10: InvalidArgument is infeasible: its own Warning words, then
// every retry within five minutes fails without a call or an Event, on the
// error backoff (1 s doubling): the next CreateVolume comes at the first
// retry after the window, 511 s after the failure.
TEST_F(ClaimControllerTest, InfeasibleClaimIsNotAttemptedAgainForFiveMinutes) {
  driver_.ScriptCreate(
      std::string(kVolume),
      {CreateFails(grpc::INVALID_ARGUMENT,
                   "rpc error: code = InvalidArgument desc = size not supported")});
  Start({DataClaim()});
  for (int seconds : {1, 3, 7, 15, 31, 63, 127, 255, 511}) {
    ASSERT_NO_FATAL_FAILURE(AdvanceToTimer(kStart + std::chrono::seconds(seconds)));
  }
  ASSERT_TRUE(log_.Await("Succeeded", kKey));
  EXPECT_THAT(log_.Of({kKey, kVolume}),
              ElementsAre("Provisioning apps/data", "CreateVolume pvc-uid-1",
                          "Infeasible apps/data: rpc error: code = InvalidArgument desc = size not "
                          "supported",
                          "Provisioning apps/data", "CreateVolume pvc-uid-1", "POST pvc-uid-1",
                          "Succeeded apps/data: pvc-uid-1"));
  EXPECT_THAT(log_.Times("CreateVolume", kVolume), ElementsAre(kStart, kStart + 511s));
}

// §3.11, §9.4: an update or a resync of an infeasible claim within the window
// makes no call either.
TEST_F(ClaimControllerTest, ChangesDuringTheInfeasibleWindowMakeNoCall) {
  driver_.ScriptCreate(std::string(kVolume), {CreateFails(grpc::INVALID_ARGUMENT, "bad size")});
  Start({DataClaim()});
  ASSERT_TRUE(log_.Await("Infeasible", kKey));
  SendClaimAndSettle(WatchEventType::kModified, Relabeled(DataClaim()));  // an update
  SendClaimAndSettle(WatchEventType::kModified, Relabeled(DataClaim()));  // a resync
  EXPECT_THAT(log_.Of({kKey, kVolume}),
              ElementsAre("Provisioning apps/data", "CreateVolume pvc-uid-1",
                          "Infeasible apps/data: bad size"));
}

// §3.11: a new class UID (the class was recreated) ends the window; the claim
// is retried when its ordinary backoff ends.
TEST_F(ClaimControllerTest, NewClassUidEndsTheInfeasibleWindow) {
  driver_.ScriptCreate(std::string(kVolume), {CreateFails(grpc::INVALID_ARGUMENT, "bad size")});
  Start({DataClaim()});
  ASSERT_TRUE(log_.Await("Infeasible", kKey));
  kube::StorageClass recreated = DriverClass("fast", "class-uid-2");
  recreated.metadata.resource_version = "2";
  Send(classes_, WatchEventType::kModified, recreated);
  AdvanceToTimer(kStart + 1s);
  ASSERT_TRUE(log_.Await("Succeeded", kKey));
  EXPECT_THAT(log_.Times("CreateVolume", kVolume), ElementsAre(kStart, kStart + 1s));
}

// §3.2 step 4: a PV the API server refused is POSTed again as it was, with no
// second CreateVolume and no Warning; ProvisioningSucceeded follows the POST
// that worked.
TEST_F(ClaimControllerTest, RefusedPvIsCreatedAgainWithoutASecondCreateVolume) {
  api_.Fail("POST", std::string(kVolume), {fakes::ServerError()});
  Start({DataClaim()});
  AdvanceToTimer(kStart + 1s);
  ASSERT_TRUE(log_.Await("Succeeded", kKey));
  EXPECT_THAT(log_.Of({kKey, kVolume}),
              ElementsAre("Provisioning apps/data", "CreateVolume pvc-uid-1", "POST pvc-uid-1",
                          "POST pvc-uid-1", "Succeeded apps/data: pvc-uid-1"));
  EXPECT_THAT(log_.Times("POST", kVolume), ElementsAre(kStart, kStart + 1s));
  std::vector<kube::PersistentVolume> posted = api_.Posted();
  ASSERT_EQ(posted.size(), 2u);
  EXPECT_EQ(posted[0], posted[1]);
}

// §3.2 step 4: AlreadyExists counts as created when the stored PV names the
// volume just made (§9.2 reads it to know).
TEST_F(ClaimControllerTest, PvThatAlreadyExistsForTheSameVolumeCountsAsCreated) {
  api_.PutVolume(fakes::DriverVolume(std::string(kVolume), "Pending"));
  Start({DataClaim()});
  ASSERT_TRUE(log_.Await("Succeeded", kKey));
  EXPECT_THAT(log_.Of({kKey, kVolume}),
              ElementsAre("Provisioning apps/data", "CreateVolume pvc-uid-1", "POST pvc-uid-1",
                          "GetVolume pvc-uid-1", "Succeeded apps/data: pvc-uid-1"));
  EXPECT_EQ(log_.Count("DeleteVolume", fakes::VolumeIdOf(std::string(kVolume))), 0u);
}

// §9.2 (#1469): a PV of the claim's volume name that names another volume
// (made by an earlier CreateVolume of a driver that is not idempotent, or
// left Terminating after its volume was deleted) can never name the volume
// just made: upstream counts AlreadyExists as created and leaks that volume;
// ours deletes it, with the deletion Secret the PV it built names.
TEST_F(ClaimControllerTest, PvNamingAnotherVolumeMakesTheNewVolumeBeDeleted) {
  kube::PersistentVolume older = fakes::DriverVolume(std::string(kVolume), "Released");
  std::get<kube::CSIPersistentVolumeSource>(older.spec.source).volume_handle = "vol-older";
  api_.PutVolume(older);
  Start({DataClaim()});
  ASSERT_TRUE(log_.Await("DeleteVolume", "vol-pvc-uid-1"));
  ASSERT_NO_FATAL_FAILURE(Settle());
  EXPECT_THAT(log_.Of({kKey, kVolume, "vol-pvc-uid-1", "vol-older"}),
              ElementsAre("Provisioning apps/data", "CreateVolume pvc-uid-1", "POST pvc-uid-1",
                          "GetVolume pvc-uid-1", "DeleteVolume vol-pvc-uid-1: {}"));
  EXPECT_EQ(api_.Stored(std::string(kVolume)), older);
}

// §9.2: a PV of the claim's volume name that appears while a CreateVolume
// outcome is unknown (another provisioner's, or one left Terminating) is not
// taken as done: the driver is asked again under the same name and the
// volume it names, which that PV does not, is deleted instead of leaked.
TEST_F(ClaimControllerTest, PvAppearingWhileTheOutcomeIsUnknownIsComparedWithTheVolumeAskedAgain) {
  driver_.ScriptCreate(std::string(kVolume),
                       {CreateFails(grpc::DEADLINE_EXCEEDED, "context deadline exceeded")});
  Start({DataClaim()});
  ASSERT_TRUE(AwaitTimer(kStart + 1s));
  kube::PersistentVolume foreign = fakes::DriverVolume(std::string(kVolume), "Available");
  std::get<kube::CSIPersistentVolumeSource>(foreign.spec.source).volume_handle = "vol-foreign";
  api_.PutVolume(foreign);
  ASSERT_NO_FATAL_FAILURE(Send(volumes_, WatchEventType::kAdded, foreign));
  AdvanceToTimer(kStart + 1s);
  ASSERT_TRUE(log_.Await("DeleteVolume", "vol-pvc-uid-1"));
  EXPECT_EQ(log_.Count("CreateVolume", kVolume), 2u);
  EXPECT_EQ(log_.Count("DeleteVolume", "vol-foreign"), 0u);
}

// §9.2: a failed DeleteVolume of such a volume is retried with the claim's
// backoff, without another CreateVolume, until it succeeds.
TEST_F(ClaimControllerTest, DuplicateVolumeWhoseDeletionFailsIsDeletedOnARetry) {
  kube::PersistentVolume older = fakes::DriverVolume(std::string(kVolume), "Released");
  std::get<kube::CSIPersistentVolumeSource>(older.spec.source).volume_handle = "vol-older";
  api_.PutVolume(older);
  driver_.ScriptDelete("vol-pvc-uid-1", {base::Error::Grpc(grpc::UNAVAILABLE, "driver away")});
  Start({DataClaim()});
  ASSERT_TRUE(AwaitTimer(kStart + 1s));
  AdvanceToTimer(kStart + 1s);
  ASSERT_TRUE(log_.Await("DeleteVolume", "vol-pvc-uid-1", 2));
  EXPECT_THAT(log_.Times("DeleteVolume", "vol-pvc-uid-1"), ElementsAre(kStart, kStart + 1s));
  EXPECT_EQ(log_.Count("CreateVolume", kVolume), 1u);
}

// §9.4 (#849): an update or a resync of a claim in backoff re-evaluates it
// but calls the driver only once the backoff (1 s, then 2 s) has ended.
TEST_F(ClaimControllerTest, BackoffHoldsWhateverBringsTheClaimBack) {
  const auto busy = CreateFails(grpc::INTERNAL, "rpc error: code = Internal desc = pool busy");
  driver_.ScriptCreate(std::string(kVolume), {busy, busy});
  Start({DataClaim()});
  ASSERT_TRUE(AwaitTimer(kStart + 1s));
  SendClaimAndSettle(WatchEventType::kModified, Relabeled(DataClaim()));  // an update
  EXPECT_EQ(log_.Count("CreateVolume", kVolume), 1u);

  AdvanceToTimer(kStart + 1s);
  ASSERT_TRUE(log_.Await("Failed", kKey, 2));
  SendClaimAndSettle(WatchEventType::kModified, Relabeled(DataClaim()));  // a resync
  EXPECT_EQ(log_.Count("CreateVolume", kVolume), 2u);

  AdvanceTo(kStart + 2s);  // whatever wakes the claim now finds it in backoff
  AdvanceToTimer(kStart + 3s);
  ASSERT_TRUE(log_.Await("Succeeded", kKey));
  EXPECT_THAT(log_.Times("CreateVolume", kVolume), ElementsAre(kStart, kStart + 1s, kStart + 3s));
  EXPECT_THAT(log_.Of({kKey}),
              ElementsAre("Provisioning apps/data",
                          "Failed apps/data: rpc error: code = Internal desc = "
                          "pool busy",
                          "Provisioning apps/data",
                          "Failed apps/data: rpc error: code = Internal desc = "
                          "pool busy",
                          "Provisioning apps/data", "Succeeded apps/data: pvc-uid-1"));
}

// §3.8: a volume smaller than the request is deleted again - DeleteVolume up
// to 5 tries - and the attempt fails with upstream's words; a cleanup that
// never works names the PV and the last error.
struct TooSmallCase {
  std::string name;
  std::vector<base::Status> cleanup;  // DeleteVolume's answers; then OK
  size_t delete_calls;
  std::string error;
};

void PrintTo(const TooSmallCase& c, std::ostream* out) { *out << c.name; }

class TooSmallVolumeTest : public ClaimControllerTest,
                           public ::testing::WithParamInterface<TooSmallCase> {};

TEST_P(TooSmallVolumeTest, IsDeletedAgainAndTheAttemptFails) {
  driver_.ScriptCreate(std::string(kVolume), {CreatesWithCapacity(1000)});
  driver_.ScriptDelete("vol-pvc-uid-1", GetParam().cleanup);
  Start({DataClaim()});
  ASSERT_TRUE(log_.Await("Failed", kKey));
  EXPECT_EQ(log_.Count("DeleteVolume", "vol-pvc-uid-1"), GetParam().delete_calls);
  EXPECT_THAT(log_.Of({kKey}),
              ElementsAre("Provisioning apps/data", "Failed apps/data: " + GetParam().error));
  EXPECT_THAT(api_.Posted(), IsEmpty());
}

base::Status Busy() {
  return base::Error::Grpc(grpc::INTERNAL, "rpc error: code = Internal desc = busy");
}
const std::string kTooSmall =
    "created volume capacity 1000 less than requested capacity 1073741824";

// DeleteVolume is tried up to 5 times, as upstream's cleanupVolume does
// (deleteVolumeRetryCount), and the orphan message names the PV.
INSTANTIATE_TEST_SUITE_P(
    ClaimControllerTest, TooSmallVolumeTest,
    ::testing::Values(TooSmallCase{"CleanupWorks", {}, 1, kTooSmall},
                      TooSmallCase{"CleanupWorksOnItsThirdTry", {Busy(), Busy()}, 3, kTooSmall},
                      TooSmallCase{"CleanupNeverWorks",
                                   {Busy(), Busy(), Busy(), Busy(), Busy()},
                                   5,
                                   kTooSmall +
                                       ". Cleanup of volume pvc-uid-1 failed, volume is orphaned: "
                                       "rpc error: code = Internal desc = busy"}),
    [](const ::testing::TestParamInfo<TooSmallCase>& info) { return info.param.name; });

// §3.8: a capacity of 0 means unknown: the PV gets the requested size.
TEST_F(ClaimControllerTest, ZeroCapacityGivesThePvTheRequestedSize) {
  driver_.ScriptCreate(std::string(kVolume), {CreatesWithCapacity(0)});
  Start({DataClaim()});
  ASSERT_TRUE(log_.Await("Succeeded", kKey));
  std::optional<kube::PersistentVolume> pv = api_.Stored(std::string(kVolume));
  ASSERT_TRUE(pv.has_value());
  EXPECT_EQ(pv->spec.capacity_storage, "1Gi");
}

// §3.3 step 3: a data source of any kind but VolumeSnapshot and
// PersistentVolumeClaim is a populator's: after the attempt's Provisioning,
// one Normal Provisioning "Assuming an external populator will provision the
// volume", no CreateVolume, no retry.
TEST_F(ClaimControllerTest, ClaimsOfAPopulatorAreLeftToIt) {
  Pvc by_ref = PendingClaim("by-ref", "uid-by-ref");
  by_ref.spec.data_source_ref = kube::TypedObjectReference{
      .api_group = "populator.example.com", .kind = "Widget", .name = "w", .namespace_ = {}};
  Pvc by_source = PendingClaim("by-source", "uid-by-source");
  by_source.spec.data_source = kube::TypedLocalObjectReference{
      .api_group = "populator.example.com", .kind = "Widget", .name = "w"};
  Start({by_ref, by_source});
  ASSERT_NO_FATAL_FAILURE(Settle());
  for (const Pvc& claim : {by_ref, by_source}) {
    const std::string key = fakes::ClaimKeyOf(claim);
    EXPECT_THAT(log_.Of({key, "pvc-" + claim.metadata.uid.str()}),
                ElementsAre("Provisioning " + key, "LeftToPopulator " + key));
  }
}

// §3.7: claims restored from a VolumeSnapshot or cloned from a claim, by a
// driver that can do both.
class DataSourceClaimTest : public ClaimControllerTest {
 protected:
  DataSourceClaimTest() {
    capabilities_.controller_rpcs.insert(csi::ControllerRpc::CREATE_DELETE_SNAPSHOT);
    capabilities_.controller_rpcs.insert(csi::ControllerRpc::CLONE_VOLUME);
  }
  static Pvc RestoreClaim() {
    Pvc claim = DataClaim();
    claim.spec.data_source = kube::TypedLocalObjectReference{
        .api_group = "snapshot.storage.k8s.io", .kind = "VolumeSnapshot", .name = "snap-1"};
    return claim;
  }
  static Pvc CloneClaim() {
    Pvc claim = DataClaim();
    claim.spec.data_source = kube::TypedLocalObjectReference{
        .api_group = {}, .kind = "PersistentVolumeClaim", .name = "src"};
    return claim;
  }
  void PutSnapshot() {
    api_.PutSnapshot(fakes::ReadySnapshot());
    api_.PutSnapshotContent(fakes::BoundContent());
  }
  static std::string Protected() {
    return "apps/snap-1: +" + std::string(fakes::kSnapshotFinalizer);
  }
  static std::string Released() {
    return "apps/snap-1: -" + std::string(fakes::kSnapshotFinalizer);
  }
  std::vector<csi::v1::CreateVolumeRequest> Requests() const {
    return driver_.CreateRequests(std::string(kVolume));
  }
};

// §3.3 step 8, §3.7: the snapshot is read live, protected by its finalizer
// before CreateVolume, named by its handle in the request, and released
// once the volume is made - before the PV is saved, as upstream does.
TEST_F(DataSourceClaimTest, RestoreProtectsTheSnapshotDuringCreateVolumeAndReleasesItAfter) {
  PutSnapshot();
  Start({RestoreClaim()});
  ASSERT_TRUE(log_.Await("Succeeded", kKey));
  EXPECT_THAT(log_.All(),
              ElementsAre("Provisioning apps/data", "GetSnapshot apps/snap-1",
                          "GetSnapshotContent content-1", "SNAPSHOT-FINALIZER " + Protected(),
                          "CreateVolume pvc-uid-1", "SNAPSHOT-FINALIZER " + Released(),
                          "POST pvc-uid-1", "Succeeded apps/data: pvc-uid-1"));
  ASSERT_EQ(Requests().size(), 1u);
  EXPECT_EQ(Requests()[0].volume_content_source().snapshot().snapshot_id(), "snap-handle-1");
}

// §3.3 step 8: a source that fails its checks is NoChange, wrapped in
// upstream's words, and nothing is written or asked of the driver.
TEST_F(DataSourceClaimTest, SourceCheckFailureIsWrappedAndMakesNoCall) {
  kube::VolumeSnapshot snapshot = fakes::ReadySnapshot();
  snapshot.status->ready_to_use = false;
  api_.PutSnapshot(snapshot);
  api_.PutSnapshotContent(fakes::BoundContent());
  Start({RestoreClaim()});
  ASSERT_TRUE(log_.Await("Failed", kKey));
  EXPECT_THAT(log_.Of({kKey}),
              ElementsAre("Provisioning apps/data",
                          "Failed apps/data: error getting handle for DataSource Type "
                          "VolumeSnapshot by Name snap-1: snapshot snap-1 is not Ready"));
  EXPECT_EQ(log_.Count("CreateVolume", kVolume), 0u);
  EXPECT_EQ(log_.Count("SNAPSHOT-FINALIZER", Protected()), 0u);
}

// §3.3, upstream's order with two faults: the data source is read before
// the class's reserved keys are checked, so the source's failure is the one
// reported (the unknown key would be Finished).
TEST_F(DataSourceClaimTest, SourceFailureIsReportedBeforeAnUnknownReservedKey) {
  kube::VolumeSnapshot snapshot = fakes::ReadySnapshot();
  snapshot.status->ready_to_use = false;
  api_.PutSnapshot(snapshot);
  api_.PutSnapshotContent(fakes::BoundContent());
  kube::StorageClass with_unknown_key = DriverClass();
  with_unknown_key.parameters["csi.storage.k8s.io/bogus"] = "x";
  Start({RestoreClaim()}, {with_unknown_key});
  ASSERT_TRUE(log_.Await("Failed", kKey));
  EXPECT_THAT(log_.Of({kKey}),
              ElementsAre("Provisioning apps/data",
                          "Failed apps/data: error getting handle for DataSource Type "
                          "VolumeSnapshot by Name snap-1: snapshot snap-1 is not Ready"));
}

// §9.7 (#1507): a final CreateVolume failure gives the snapshot back at
// once; upstream keeps the finalizer until its sweeper runs.
TEST_F(DataSourceClaimTest, FinalCreateVolumeFailureReleasesTheSnapshot) {
  PutSnapshot();
  driver_.ScriptCreate(std::string(kVolume),
                       {CreateFails(grpc::INTERNAL, "rpc error: code = Internal desc = broken")});
  Start({RestoreClaim()});
  ASSERT_TRUE(log_.Await("SNAPSHOT-FINALIZER", Released()));
  EXPECT_THAT(log_.Of({kVolume, Protected(), Released()}),
              ElementsAre("SNAPSHOT-FINALIZER " + Protected(), "CreateVolume pvc-uid-1",
                          "SNAPSHOT-FINALIZER " + Released()));
}

// A CreateVolume that may still run keeps the snapshot protected.
TEST_F(DataSourceClaimTest, UnknownOutcomeKeepsTheSnapshotProtected) {
  PutSnapshot();
  driver_.ScriptCreate(std::string(kVolume),
                       {CreateFails(grpc::DEADLINE_EXCEEDED, "context deadline exceeded")});
  Start({RestoreClaim()});
  ASSERT_TRUE(AwaitTimer(kStart + 1s));
  EXPECT_EQ(log_.Count("SNAPSHOT-FINALIZER", Protected()), 1u);
  EXPECT_EQ(log_.Count("SNAPSHOT-FINALIZER", Released()), 0u);
}

// §9.7: a claim deleted after an attempt that protected the snapshot but
// failed before the driver (NoChange: here the Provisioner Secret is
// missing) gives the snapshot back.
TEST_F(DataSourceClaimTest, ClaimDeletedAfterAnAttemptReleasesTheSnapshot) {
  PutSnapshot();
  kube::StorageClass with_secret = DriverClass();
  with_secret.parameters["csi.storage.k8s.io/provisioner-secret-name"] = "creds";
  with_secret.parameters["csi.storage.k8s.io/provisioner-secret-namespace"] = "apps";
  Start({RestoreClaim()}, {with_secret});
  ASSERT_TRUE(AwaitTimer(kStart + 1s));
  EXPECT_EQ(log_.Count("SNAPSHOT-FINALIZER", Protected()), 1u);
  ASSERT_NO_FATAL_FAILURE(SendClaimAndSettle(WatchEventType::kDeleted, Relabeled(RestoreClaim())));
  EXPECT_EQ(log_.Count("SNAPSHOT-FINALIZER", Released()), 1u);
  EXPECT_EQ(log_.Count("CreateVolume", kVolume), 0u);
}

// Only a finalizer this process added is released: a claim whose source
// failed its checks (nothing protected) releases nothing when deleted.
TEST_F(DataSourceClaimTest, ClaimDeletedBeforeItsSnapshotWasProtectedReleasesNothing) {
  kube::VolumeSnapshot snapshot = fakes::ReadySnapshot();
  snapshot.status->ready_to_use = false;
  api_.PutSnapshot(snapshot);
  api_.PutSnapshotContent(fakes::BoundContent());
  Start({RestoreClaim()});
  ASSERT_TRUE(AwaitTimer(kStart + 1s));
  ASSERT_NO_FATAL_FAILURE(SendClaimAndSettle(WatchEventType::kDeleted, Relabeled(RestoreClaim())));
  EXPECT_EQ(log_.Count("SNAPSHOT-FINALIZER", Protected()), 0u);
  EXPECT_EQ(log_.Count("SNAPSHOT-FINALIZER", Released()), 0u);
}

// §3.7: the source claim from the cache, its PV read live, its
// cloning-protection finalizer added before CreateVolume, and the source
// volume's handle in the request. The finalizer stays (the clone protection
// controller removes it once the source is deleted).
TEST_F(DataSourceClaimTest, CloneProtectsTheSourceClaimAndNamesItsVolume) {
  api_.PutVolume(fakes::SourceVolume());
  Start({fakes::SourceClaim(), CloneClaim()});
  ASSERT_TRUE(log_.Await("Succeeded", kKey));
  EXPECT_THAT(
      log_.All(),
      ElementsAre("Provisioning apps/data", "GetVolume pv-src",
                  "FINALIZER apps/src: +provisioner.storage.kubernetes.io/cloning-protection",
                  "CreateVolume pvc-uid-1", "POST pvc-uid-1", "Succeeded apps/data: pvc-uid-1"));
  ASSERT_EQ(Requests().size(), 1u);
  EXPECT_EQ(Requests()[0].volume_content_source().volume().volume_id(), "vol-pv-src");
}

// §3.7/§3.8: a volume made without the content source asked for is deleted
// again; the attempt stays in background (the driver may retry).
TEST_F(DataSourceClaimTest, AnswerWithoutContentSourceDeletesTheVolume) {
  PutSnapshot();
  driver_.ScriptCreate(std::string(kVolume), {fakes::CreatesWithoutContentSource()});
  Start({RestoreClaim()});
  ASSERT_TRUE(log_.Await("Failed", kKey));
  EXPECT_THAT(log_.Of({kKey, "vol-pvc-uid-1"}),
              ElementsAre("Provisioning apps/data", "DeleteVolume vol-pvc-uid-1: {}",
                          "Failed apps/data: volume content source missing"));
  EXPECT_EQ(log_.Count("POST", kVolume), 0u);
  // kInBackground: the §9.1 record, and the snapshot stays protected.
  ASSERT_TRUE(log_.Await(
      "FINALIZER", "apps/data: +external-provisioner.volume.kubernetes.io/volume-being-created"));
  EXPECT_EQ(log_.Count("SNAPSHOT-FINALIZER", Released()), 0u);
}

TEST_F(DataSourceClaimTest, FailedCleanupOfAVolumeWithoutContentSourceSaysItIsOrphaned) {
  PutSnapshot();
  driver_.ScriptCreate(std::string(kVolume), {fakes::CreatesWithoutContentSource()});
  const base::Error broken = base::Error::Grpc(grpc::INTERNAL, "broken");
  driver_.ScriptDelete("vol-pvc-uid-1", {broken, broken, broken, broken, broken});
  Start({RestoreClaim()});
  ASSERT_TRUE(log_.Await("Failed", kKey));
  EXPECT_EQ(log_.Count("DeleteVolume", "vol-pvc-uid-1"), 5u);
  EXPECT_THAT(log_.Of({kKey}),
              ::testing::Contains("Failed apps/data: volume content source missing. cleanup of "
                                  "volume pvc-uid-1 failed, volume is orphaned: broken"));
}

// §3.10: the claim Events in upstream's types, reasons and words; the
// populator's under the provisioner's own source.
TEST(RecordedClaimEventsTest, SpeakUpstreamsWords) {
  fakes::RecordingEventApi api;
  base::FakeClock clock;
  kube::EventRecorder controller(api, clock,
                                 {.component = "fast.csi.example.com_host_1", .host = "host-1"});
  kube::EventRecorder provisioner(api, clock,
                                  {.component = "external-provisioner", .host = "host-1"});
  RecordedClaimEvents events(controller, provisioner);
  const Pvc claim = DataClaim();
  events.Provisioning(claim);
  events.LeftToPopulator(claim);
  events.Failed(claim, "rpc error: code = Internal desc = boom");
  events.Infeasible(claim, "rpc error: code = InvalidArgument desc = bad");
  events.Succeeded(claim, std::string(kVolume));
  controller.Drain();
  provisioner.Drain();
  const std::string on = " PersistentVolumeClaim/data: ";
  EXPECT_THAT(api.created(),
              ::testing::UnorderedElementsAre(
                  "fast.csi.example.com_host_1 Normal Provisioning" + on +
                      "External provisioner is provisioning volume for claim \"apps/data\"",
                  "external-provisioner Normal Provisioning" + on +
                      "Assuming an external populator will provision the volume",
                  "fast.csi.example.com_host_1 Warning ProvisioningFailed" + on +
                      "rpc error: code = Internal desc = boom",
                  "fast.csi.example.com_host_1 Warning ProvisioningFailed" + on +
                      "Volume provisioning failed with infeasible error. Retries will be delayed. "
                      "rpc error: code = InvalidArgument desc = bad",
                  "fast.csi.example.com_host_1 Normal ProvisioningSucceeded" + on +
                      "Successfully provisioned volume pvc-uid-1"));
}

}  // namespace
}  // namespace provisioner
