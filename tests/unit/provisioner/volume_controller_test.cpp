// docs/provisioner.md §4.1 (which PVs, the finalizer), §4.2 (deletion, its
// Secret, its order, VolumeAttachments), §3.10 (Events) and §9.3 (one
// DeleteVolume per volume): VolumeController run over fake PV, class and
// VolumeAttachment sources with one worker, a scripted driver, a recording
// API and a FakeClock (provisioner_fakes.h).
//
// A sync that fails or waits sets the queue's timer (AwaitTimer), one that
// acts leaves calls in the log (log_.Await), and one that does nothing is
// proved over by SettleVolumes(), which sends a PV that gets a finalizer
// behind it in the one worker's FIFO.
#include "provisioner/volume_controller.h"

#include <gmock/gmock.h>
#include <grpcpp/support/status_code_enum.h>
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/tools/event_recorder.h"
#include "provisioner_fakes.h"

namespace provisioner {
namespace {

using namespace std::chrono_literals;
using fakes::DriverClass;
using fakes::DriverVolume;
using fakes::kDriver;
using fakes::kOtherDriver;
using fakes::WithOurFinalizer;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using Pv = kube::PersistentVolume;
using kube::WatchEventType;

// The finalizer patches, as the log shows them (§4.1: strategic merge
// patches naming our entry alone).
const std::string kAddFinalizer =
    R"(strategic-merge {"metadata":{"finalizers":["external-provisioner.volume.kubernetes.io/finalizer"]}})";
const std::string kRemoveFinalizer =
    R"(strategic-merge {"metadata":{"$deleteFromPrimitiveList/finalizers":["external-provisioner.volume.kubernetes.io/finalizer"]}})";

// A Released PV of policy Delete with our finalizer: one to delete.
Pv ReleasedVolume(const std::string& name) {
  return WithOurFinalizer(DriverVolume(name, "Released"));
}

// The calls a complete deletion of `name` makes after any Secret read:
// DeleteVolume with `secrets`, the PV's DELETE, the finalizer's removal.
std::vector<std::string> DeletionOf(const std::string& name, const std::string& secrets = "{}") {
  return {"DeleteVolume vol-" + name + ": " + secrets, "DELETE " + name,
          "PATCH " + name + ": " + kRemoveFinalizer};
}

void SetDeletionSecret(Pv& volume, const std::string& ns, const std::string& name) {
  volume.metadata.annotations[kDeletionSecretNamespaceAnnotation] = ns;
  volume.metadata.annotations[kDeletionSecretNameAnnotation] = name;
}

class VolumeControllerTest : public fakes::World {
 protected:
  // Runs the controller with one worker over `volumes`, `classes` and
  // `attachments`; VolumeAttachments hold deletion back when
  // `check_attachments`.
  void Start(std::vector<Pv> volumes, std::vector<kube::StorageClass> classes = {DriverClass()},
             std::vector<kube::VolumeAttachment> attachments = {}, bool check_attachments = false,
             bool not_found_is_deleted = false) {
    volumes_.SetItems(std::move(volumes));
    classes_.SetItems(std::move(classes));
    attachments_.SetItems(std::move(attachments));
    kube::InformerSet& informers = MakeInformers();
    informers.UseSource(attachments_);
    VolumeControllerOptions options;
    options.loop.worker_threads = 1;  // retries from 1 s doubling up to 5 min
    options.check_attachments = check_attachments;
    options.not_found_is_deleted = not_found_is_deleted;
    controller_.emplace(std::string(kDriver), std::move(options), informers, api_, driver_, events_,
                        nullptr, clock_);
    RunController(*controller_);
  }

  // Sends a Bound PV of ours without the finalizer and waits for its
  // finalizer patch. With one worker, every PV queued before it has been
  // synced by then, and a sync that was in flight has ended.
  void SettleVolumes() {
    const std::string name = "sentinel-" + std::to_string(++sentinels_);
    Send(volumes_, WatchEventType::kAdded, DriverVolume(name, "Bound"));
    ASSERT_TRUE(log_.Await("PATCH", name));
  }

  testsupport::FakeListerWatcher<kube::VolumeAttachment> attachments_;
  fakes::FakeVolumeEvents events_{log_};
  std::optional<VolumeController> controller_;
  int sentinels_ = 0;
};

// §4.1: the finalizer follows the reclaim policy on every PV of ours -
// provisioned by the driver or a static PV of its CSI driver - and no PV of
// another driver is touched.
TEST_F(VolumeControllerTest, FinalizerFollowsTheReclaimPolicyOnOurPvsOnly) {
  struct Case {
    std::string name;
    std::function<Pv(const std::string&)> volume;
    std::optional<std::string> patch;  // none: not touched
  };
  const auto bound = [](const std::string& policy) {
    return [policy](const std::string& name) { return DriverVolume(name, "Bound", policy); };
  };
  const auto static_of = [](std::string_view driver) {
    return [driver](const std::string& name) {
      Pv volume = DriverVolume(name, "Bound");
      volume.metadata.annotations.erase(kProvisionedByAnnotation);
      std::get<kube::CSIPersistentVolumeSource>(volume.spec.source).driver = driver;
      return volume;
    };
  };
  const std::vector<Case> cases = {
      {"bound-delete", bound("Delete"), kAddFinalizer},
      {"bound-delete-has-it",
       [&](const std::string& n) { return WithOurFinalizer(bound("Delete")(n)); }, std::nullopt},
      {"retain", [&](const std::string& n) { return WithOurFinalizer(bound("Retain")(n)); },
       kRemoveFinalizer},
      {"recycle", [&](const std::string& n) { return WithOurFinalizer(bound("Recycle")(n)); },
       kRemoveFinalizer},
      {"retain-without-it", bound("Retain"), std::nullopt},
      {"static", static_of(kDriver), kAddFinalizer},
      {"static-of-other-driver", static_of(kOtherDriver), std::nullopt},
      {"provisioned-by-other-driver",
       [](const std::string& n) {
         Pv volume = DriverVolume(n, "Bound");
         volume.metadata.annotations[kProvisionedByAnnotation] = std::string(kOtherDriver);
         return volume;
       },
       std::nullopt},
      {"available", [](const std::string& n) { return DriverVolume(n, "Available"); },
       std::nullopt},
      {"being-deleted",
       [](const std::string& n) {
         Pv volume = DriverVolume(n, "Bound");
         volume.metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
         return volume;
       },
       std::nullopt},
  };
  std::vector<Pv> volumes;
  for (const Case& c : cases) volumes.push_back(c.volume(c.name));
  Start(volumes);
  ASSERT_NO_FATAL_FAILURE(SettleVolumes());
  for (const Case& c : cases) {
    if (c.patch) {
      EXPECT_THAT(log_.Of({c.name}), ElementsAre("PATCH " + c.name + ": " + *c.patch)) << c.name;
    } else {
      EXPECT_THAT(log_.Of({c.name}), IsEmpty()) << c.name;
    }
  }
}

// §4.2: a Released PV of policy Delete: the Secret its deletion-secret
// annotations name is read, DeleteVolume gets its data, then the PV is
// DELETEd and our finalizer patched away - in this order.
TEST_F(VolumeControllerTest, ReleasedVolumeIsDeletedThenItsPvThenTheFinalizer) {
  api_.PutSecret("storage", "released-creds", {{"password", "hunter2"}});
  Pv released = ReleasedVolume("released");
  SetDeletionSecret(released, "storage", "released-creds");
  Start({released});
  ASSERT_TRUE(log_.Await("PATCH", "released"));
  std::vector<std::string> expected = {"GetSecret storage/released-creds"};
  for (const std::string& call : DeletionOf("released", "{password=hunter2}")) {
    expected.push_back(call);
  }
  EXPECT_EQ(log_.Of({"released", "vol-released", "storage/released-creds"}), expected);
}

// §4.2 step 4, §3.10: a failed DeleteVolume is a Warning VolumeFailedDelete
// with the driver's error as is, retried on the error backoff.
TEST_F(VolumeControllerTest, FailedDeleteVolumeIsReportedAsIsAndRetried) {
  driver_.ScriptDelete(
      "vol-released",
      {base::Error::Grpc(grpc::INTERNAL, "rpc error: code = Internal desc = busy")});
  Start({ReleasedVolume("released")});
  ASSERT_TRUE(AwaitTimer(kStart + 1s));
  EXPECT_THAT(log_.Of({"released", "vol-released"}),
              ElementsAre("DeleteVolume vol-released: {}",
                          "DeleteFailed released: rpc error: code = Internal desc = busy"));
  AdvanceToTimer(kStart + 1s);
  ASSERT_TRUE(log_.Await("PATCH", "released"));
  EXPECT_THAT(log_.Times("DeleteVolume", "vol-released"), ElementsAre(kStart, kStart + 1s));
  EXPECT_EQ(
      log_.Of({"released"}),
      (std::vector<std::string>{"DeleteFailed released: rpc error: code = Internal desc = busy",
                                "DELETE released", "PATCH released: " + kRemoveFinalizer}));
}

// §9.9 (#1277): with --delete-volume-not-found-is-success a DeleteVolume
// answered NotFound finishes the deletion at once; without it, as upstream,
// NotFound is a failure like any other (the test above).
TEST_F(VolumeControllerTest, DeleteVolumeNotFoundCountsAsDeletedWhenAskedTo) {
  const auto not_found = base::Error::Grpc(grpc::NOT_FOUND, "rpc error: code = NotFound");
  driver_.ScriptDelete("vol-gone", {not_found});
  Start({ReleasedVolume("gone")}, {DriverClass()}, {}, false, /*not_found_is_deleted=*/true);
  ASSERT_TRUE(log_.Await("PATCH", "gone"));
  EXPECT_EQ(log_.Of({"gone", "vol-gone"}), DeletionOf("gone"));
  EXPECT_THAT(log_.Times("DeleteVolume", "vol-gone"), ElementsAre(kStart));
}

TEST_F(VolumeControllerTest, DeleteVolumeNotFoundIsAFailureByDefault) {
  const auto not_found = base::Error::Grpc(grpc::NOT_FOUND, "rpc error: code = NotFound");
  driver_.ScriptDelete("vol-gone", {not_found});
  Start({ReleasedVolume("gone")});
  ASSERT_TRUE(AwaitTimer(kStart + 1s));
  EXPECT_THAT(
      log_.Of({"gone", "vol-gone"}),
      ElementsAre("DeleteVolume vol-gone: {}", "DeleteFailed gone: rpc error: code = NotFound"));
}

kube::VolumeAttachment AttachmentOf(const std::string& pv, const std::string& node) {
  kube::VolumeAttachment attachment;
  attachment.metadata.name = "va-" + pv;
  attachment.metadata.resource_version = "1";
  attachment.spec.attacher = kDriver;
  attachment.spec.node_name = node;
  attachment.spec.source.persistent_volume_name = pv;
  return attachment;
}

// §4.2 step 3, §3.10 (v6.4.0 #1588): while a VolumeAttachment names the PV,
// deletion waits with a Normal VolumeDelete and no DeleteVolume; once it is
// gone, the next retry deletes.
TEST_F(VolumeControllerTest, AttachedVolumeWaitsForItsDetach) {
  const kube::VolumeAttachment attached = AttachmentOf("released", "node-1");
  Start({ReleasedVolume("released")}, {DriverClass()}, {attached, AttachmentOf("other", "node-2")},
        /*check_attachments=*/true);
  ASSERT_TRUE(AwaitTimer(kStart + 1s));
  EXPECT_THAT(log_.Of({"released", "vol-released"}),
              ElementsAre("WaitingForDetach released: node-1"));
  Send(attachments_, WatchEventType::kDeleted, attached);
  AdvanceToTimer(kStart + 1s);
  ASSERT_TRUE(log_.Await("PATCH", "released"));
  std::vector<std::string> expected = {"WaitingForDetach released: node-1"};
  for (const std::string& call : DeletionOf("released")) expected.push_back(call);
  EXPECT_EQ(log_.Of({"released", "vol-released"}), expected);
}

// §9.3 (#1235): once the volume is deleted, a failure of the PV's DELETE or
// of the finalizer's removal is retried without a second DeleteVolume.
TEST_F(VolumeControllerTest, VolumeIsDeletedOnceWhenFinishingTheDeletionFails) {
  struct Case {
    std::string name;
    std::string failing_verb;
    std::vector<std::string> calls;
  };
  const std::vector<Case> cases = {
      {"delete-fails",
       "DELETE",
       {"DeleteVolume vol-delete-fails: {}", "DELETE delete-fails", "DELETE delete-fails",
        "PATCH delete-fails: " + kRemoveFinalizer}},
      {"patch-fails",
       "PATCH",
       {"DeleteVolume vol-patch-fails: {}", "DELETE patch-fails",
        "PATCH patch-fails: " + kRemoveFinalizer, "DELETE patch-fails",
        "PATCH patch-fails: " + kRemoveFinalizer}},
  };
  std::vector<Pv> volumes;
  for (const Case& c : cases) {
    api_.Fail(c.failing_verb, c.name, {fakes::ServerError()});
    volumes.push_back(ReleasedVolume(c.name));
  }
  Start(volumes);
  for (const Case& c : cases) ASSERT_TRUE(log_.Await(c.failing_verb, c.name));
  ASSERT_NO_FATAL_FAILURE(SettleVolumes());
  AdvanceToTimer(kStart + 1s);
  for (const Case& c : cases) {
    ASSERT_TRUE(log_.Await("PATCH", c.name, c.failing_verb == "PATCH" ? 2 : 1));
    EXPECT_EQ(log_.Of({c.name, "vol-" + c.name}), c.calls) << c.name;
  }
}

// §9.3 (#1235): the watch event of the PV's DELETE (deletionTimestamp set,
// our finalizer still there) arriving after the finalizer's removal syncs
// the PV again: no second DeleteVolume.
TEST_F(VolumeControllerTest, LateEventOfTheDeletionCausesNoSecondDeleteVolume) {
  const Pv released = ReleasedVolume("released");
  Start({released});
  ASSERT_TRUE(log_.Await("PATCH", "released"));
  ASSERT_NO_FATAL_FAILURE(SettleVolumes());
  Pv terminating = released;
  terminating.metadata.resource_version = "2";
  terminating.metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
  Send(volumes_, WatchEventType::kModified, terminating);
  ASSERT_TRUE(log_.Await("PATCH", "released", 2));
  EXPECT_EQ(log_.Count("DeleteVolume", "vol-released"), 1u);
}

// §4.2 step 2: the deletion Secret. Both annotations set: that Secret
// (a failed read is ignored); both or one empty: none; either absent (a PV
// from before the annotations): the class's provisioner-secret templates
// with the claimRef's name and namespace, none without class or claimRef.
TEST_F(VolumeControllerTest, DeletionSecretComesFromTheAnnotationsOrElseTheClass) {
  struct Case {
    std::string name;
    std::function<void(Pv&)> setup;
    std::string read;     // the Secret read, "" for none
    std::string secrets;  // what DeleteVolume gets
  };
  const std::vector<Case> cases = {
      {"annotated", [](Pv& v) { SetDeletionSecret(v, "storage", "annotated-creds"); },
       "storage/annotated-creds", "{password=hunter2}"},
      {"both-empty", [](Pv& v) { SetDeletionSecret(v, "", ""); }, "", "{}"},
      {"one-empty", [](Pv& v) { SetDeletionSecret(v, "", "creds"); }, "", "{}"},
      {"unreadable", [](Pv& v) { SetDeletionSecret(v, "storage", "missing"); }, "storage/missing",
       "{}"},
      {"old", [](Pv& v) { v.spec.storage_class_name = "templated"; }, "apps/data-creds",
       "{token=abc}"},
      {"old-class-gone", [](Pv& v) { v.spec.storage_class_name = "gone"; }, "", "{}"},
      {"old-without-claim",
       [](Pv& v) {
         v.spec.storage_class_name = "templated";
         v.spec.claim_ref.reset();
       },
       "", "{}"},
  };
  api_.PutSecret("storage", "annotated-creds", {{"password", "hunter2"}});
  api_.PutSecret("apps", "data-creds", {{"token", "abc"}});
  kube::StorageClass templated = DriverClass("templated", "class-uid-2");
  templated.parameters = {{"csi.storage.k8s.io/provisioner-secret-name", "${pvc.name}-creds"},
                          {"csi.storage.k8s.io/provisioner-secret-namespace", "${pvc.namespace}"}};
  std::vector<Pv> volumes;
  for (const Case& c : cases) {
    volumes.push_back(ReleasedVolume(c.name));
    c.setup(volumes.back());
  }
  Start(volumes, {DriverClass(), templated});
  size_t reads = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ASSERT_TRUE(log_.Await("PATCH", c.name));
    EXPECT_EQ(log_.Of({c.name, "vol-" + c.name}), DeletionOf(c.name, c.secrets));
    if (!c.read.empty()) {
      EXPECT_EQ(log_.Count("GetSecret", c.read), 1u);
      ++reads;
    }
  }
  size_t all_reads = 0;
  for (const std::string& call : log_.All()) all_reads += call.starts_with("GetSecret ");
  EXPECT_EQ(all_reads, reads);
}

// §4.2 step 2: a class template that cannot be resolved for an old PV fails
// the deletion before DeleteVolume, with upstream's wrapping.
TEST_F(VolumeControllerTest, UnresolvableSecretTemplateFailsTheDeletion) {
  kube::StorageClass by_annotation = DriverClass("by-annotation", "class-uid-2");
  by_annotation.parameters = {
      {"csi.storage.k8s.io/provisioner-secret-name", "${pvc.annotations['team']}-creds"},
      {"csi.storage.k8s.io/provisioner-secret-namespace", "${pvc.namespace}"}};
  Pv old = ReleasedVolume("old");
  old.spec.storage_class_name = "by-annotation";
  Start({old}, {by_annotation});
  ASSERT_TRUE(AwaitTimer(kStart + 1s));
  EXPECT_THAT(log_.Of({"old", "vol-old"}),
              ElementsAre(::testing::StartsWith(
                  "DeleteFailed old: failed to get secretreference for volume old: ")));
}

// §3.10: the PV Events in upstream's types, reasons and words.
TEST(RecordedVolumeEventsTest, SpeakUpstreamsWords) {
  fakes::RecordingEventApi api;
  base::FakeClock clock;
  kube::EventRecorder recorder(api, clock,
                               {.component = "fast.csi.example.com_host_1", .host = "host-1"});
  RecordedVolumeEvents events(recorder);
  const Pv volume = DriverVolume("pvc-1", "Released");
  events.DeleteFailed(volume, "rpc error: code = NotFound desc = no such volume");
  events.WaitingForDetach(volume, "node-1");
  recorder.Drain();
  EXPECT_THAT(
      api.created(),
      ElementsAre("fast.csi.example.com_host_1 Warning VolumeFailedDelete "
                  "PersistentVolume/pvc-1: rpc error: code = NotFound desc = no such volume",
                  "fast.csi.example.com_host_1 Normal VolumeDelete PersistentVolume/pvc-1: "
                  "persistentvolume pvc-1 is still attached to node node-1, waiting for "
                  "detach"));
}

}  // namespace
}  // namespace provisioner
