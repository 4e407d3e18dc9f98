// docs/attacher.md §5.5 (PV finalizer removal) and the force-sync contract of
// Handler (§5.7): a forced sync calls the driver even when status says the
// work is done, and stays pending until such a sync succeeds.
#include "attacher/csi_handler.h"

#include <gtest/gtest.h>

#include "tests/unit/attacher/handler_fixtures.h"

namespace attacher::handler_testing {
namespace {

struct PvCase {
  std::string name = {};
  kube::PersistentVolume pv = {};
  std::vector<kube::VolumeAttachment> vas = {};
  std::vector<ApiFailure> api_failures = {};
  std::vector<ApiCall> want_api = {};
  std::string want_error = {};  // empty: success
};

kube::PersistentVolume DeletedPv(const Edit<kube::PersistentVolume>& edit = {}) {
  kube::PersistentVolume pv = Pv([](auto& pv) {
    pv.metadata.deletion_timestamp = std::string(kDeleted);
    pv.metadata.finalizers = {"kubernetes.io/pv-protection", kFinalizer};
  });
  return Edited(std::move(pv), edit);
}

// An in-tree PV in use by us, not being deleted, with no migrated-to
// annotation: CSI migration was rolled back.
kube::PersistentVolume InTreePv(const Edit<kube::PersistentVolume>& edit = {}) {
  kube::PersistentVolume pv = DeletedPv([](auto& pv) {
    pv.metadata.deletion_timestamp.clear();
    pv.spec.source = [&] {
      kube::GCEPersistentDiskVolumeSource v;
      v.pd_name = "pd";
      return v;
    }();
  });
  return Edited(std::move(pv), edit);
}

// The one body removing our finalizer, wherever it is in the list and
// whatever else the list holds by the time it arrives.
const ApiCall kRemovePvFinalizer = PatchPv(
    "pv-1",
    R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["external-attacher/csi-example-com"]}})");

class CsiHandlerPersistentVolume : public ::testing::TestWithParam<PvCase> {};

TEST_P(CsiHandlerPersistentVolume, Sync) {
  const PvCase& c = GetParam();
  kube::Store<kube::VolumeAttachment> vas;
  Fill(vas, c.vas);
  kube::Store<kube::PersistentVolume> pvs;
  Fill(pvs, {c.pv});
  kube::Store<kube::CSINode> csi_nodes;
  base::FakeClock clock;
  FakeKubernetesApi api(c.api_failures);
  FakeVolumePublisher publisher;
  CsiHandler handler(std::string(kDriver), vas, pvs, csi_nodes, api, publisher, {}, clock);

  base::Status status = handler.SyncPersistentVolume(c.pv);

  if (c.want_error.empty()) {
    EXPECT_TRUE(status.ok()) << status.error().message;
  } else {
    EXPECT_FALSE(status.ok());
    EXPECT_EQ(status.error().message, c.want_error);
  }
  EXPECT_THAT(api.calls(), ::testing::ElementsAreArray(c.want_api));
  EXPECT_THAT(publisher.calls(), ::testing::IsEmpty());
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CsiHandlerPersistentVolume,
    ::testing::ValuesIn(std::vector<PvCase>{
        {.name = "UnusedDeletedPvLosesOurFinalizerAlone",
         .pv = DeletedPv(),
         .vas = {Va([](auto& va) { va.spec.source.persistent_volume_name = "pv-2"; })},
         .want_api = {kRemovePvFinalizer}},
        {.name = "SoleFinalizerIsRemovedWithTheSameBody",
         .pv = DeletedPv([](auto& pv) { pv.metadata.finalizers = {kFinalizer}; }),
         .want_api = {kRemovePvFinalizer}},
        {.name = "FinalizerIsKeptWhileVaOfAnotherDriverUsesPv",
         .pv = DeletedPv(),
         .vas = {Va([](auto& va) { va.spec.attacher = "other.example.com"; })}},
        {.name = "FinalizerIsKeptWhileDeletedVaUsesPv", .pv = DeletedPv(), .vas = {DeletedVa()}},
        {.name = "PvWithoutDeletionTimestampIsIgnored",
         .pv = DeletedPv([](auto& pv) { pv.metadata.deletion_timestamp.clear(); })},
        {.name = "RolledBackInTreePvWithoutVaLosesFinalizer",
         .pv = InTreePv(),
         .want_api = {kRemovePvFinalizer}},
        {.name = "RolledBackInTreePvOfAnotherDriverLosesFinalizer",
         .pv = InTreePv([](auto& pv) {
           pv.metadata.annotations = {{"pv.kubernetes.io/migrated-to", "other.example.com"}};
         }),
         .want_api = {kRemovePvFinalizer}},
        {.name = "RolledBackInTreePvKeepsFinalizerWhileVaUsesIt",
         .pv = InTreePv(),
         .vas = {AttachedVa()}},
        {.name = "InTreePvMigratedToUsIsIgnored",
         .pv = InTreePv([](auto& pv) {
           pv.metadata.annotations = {{"pv.kubernetes.io/migrated-to", std::string(kDriver)}};
         })},
        {.name = "PvWithoutOurFinalizerIsIgnored", .pv = DeletedPv([](auto& pv) {
                                                     pv.metadata.finalizers = {
                                                         "kubernetes.io/pv-protection"};
                                                   })},
        {.name = "FailedRemovalIsReturned",
         .pv = DeletedPv(),
         .api_failures = {{"patch", "persistentvolumes", "", base::Error::Http(500, "boom")}},
         .want_api = {kRemovePvFinalizer},
         .want_error = R"(failed to remove finalizer from PersistentVolume "pv-1": boom)"},
        {.name = "RemovalFromAPvThatIsGoneSucceeds",
         .pv = DeletedPv(),
         .api_failures = {{"patch", "persistentvolumes", "",
                           base::Error::Http(404, R"(persistentvolumes "pv-1" not found)")}},
         .want_api = {kRemovePvFinalizer}},
    }),
    [](const auto& info) { return info.param.name; });

// A handler over the default PV and CSINode; the VA cache stays empty.
class CsiHandlerForceSync : public HandlerWorld {
 protected:
  CsiHandler handler_{std::string(kDriver), vas_, pvs_, csi_nodes_, api_, publisher_, {}, clock_};
};

TEST_F(CsiHandlerForceSync, ForcedAttachStaysPendingUntilItSucceeds) {
  const kube::VolumeAttachment va = AttachedVa();
  handler_.RequestForceSync("va-1");
  publisher_.SetScript(
      {.publish_error = base::Error::Grpc(10, "rpc error: code = Aborted desc = x")});
  EXPECT_FALSE(handler_.SyncVolumeAttachment(va).ok());
  publisher_.SetScript({.publish_context = {{"devicePath", "/dev/sdb"}}});
  EXPECT_TRUE(handler_.SyncVolumeAttachment(va).ok());
  EXPECT_TRUE(handler_.SyncVolumeAttachment(va).ok());  // no longer forced: skipped

  EXPECT_EQ(publisher_.calls().size(), 2u);
}

TEST_F(CsiHandlerForceSync, ForcedDetachIsConsumedBySuccess) {
  const kube::VolumeAttachment va = DeletedVa([](auto& va) { va.metadata.finalizers.clear(); });
  handler_.RequestForceSync("va-1");
  EXPECT_TRUE(handler_.SyncVolumeAttachment(va).ok());
  EXPECT_TRUE(handler_.SyncVolumeAttachment(va).ok());

  EXPECT_EQ(publisher_.calls().size(), 1u);
}

TEST_F(CsiHandlerForceSync, ForceSyncOfOneVaDoesNotForceAnother) {
  handler_.RequestForceSync("va-2");
  EXPECT_TRUE(handler_.SyncVolumeAttachment(AttachedVa()).ok());

  EXPECT_TRUE(publisher_.calls().empty());
}

// Re-requests a force-sync of va-1 from inside the first Publish, as the
// reconciler may while a sync runs.
class RequestingPublisher final : public VolumePublisher {
 public:
  Handler* handler = nullptr;
  int publishes = 0;

  base::Result<std::map<std::string, std::string>> Publish(const PublishRequest&) override {
    if (publishes++ == 0) handler->RequestForceSync("va-1");
    return std::map<std::string, std::string>();
  }
  base::Status Unpublish(const UnpublishRequest&) override { return base::Status::Ok(); }
};

TEST(CsiHandlerForceSyncRace, RequestDuringForcedSyncSurvivesIt) {
  kube::Store<kube::VolumeAttachment> vas;
  kube::Store<kube::PersistentVolume> pvs;
  Fill(pvs, {Pv()});
  kube::Store<kube::CSINode> csi_nodes;
  Fill(csi_nodes, {CsiNode()});
  base::FakeClock clock;
  FakeKubernetesApi api;
  RequestingPublisher publisher;
  CsiHandler handler(std::string(kDriver), vas, pvs, csi_nodes, api, publisher, {}, clock);
  publisher.handler = &handler;

  handler.RequestForceSync("va-1");
  EXPECT_TRUE(handler.SyncVolumeAttachment(AttachedVa()).ok());
  EXPECT_TRUE(handler.SyncVolumeAttachment(AttachedVa()).ok());
  EXPECT_TRUE(handler.SyncVolumeAttachment(AttachedVa()).ok());

  EXPECT_EQ(publisher.publishes, 2);
}

}  // namespace
}  // namespace attacher::handler_testing
