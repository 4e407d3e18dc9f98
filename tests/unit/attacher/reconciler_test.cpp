#include "attacher/reconciler.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "controller_fakes.h"

namespace attacher {
namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;
using testing::FakeHandler;
using ::testing::IsEmpty;
using testing::kDriver;
using testing::kHandOffTimeout;
using testing::MakeCsiNode;
using testing::MakeCsiPv;
using testing::MakeVa;

constexpr auto kPeriod = 1min;

// Scripted ListVolumes answers, one per call, recording the fake time of each
// call.
class FakeListVolumes {
 public:
  explicit FakeListVolumes(base::FakeClock& clock) : clock_(clock) {}

  void Script(base::Result<csi::PublishedVolumes> answer) {
    std::lock_guard lock(mu_);
    answers_.push_back(std::move(answer));
  }
  // Delays the answer of the next call by `d` of fake time (a slow driver).
  void TakeTime(base::Clock::Duration d) {
    std::lock_guard lock(mu_);
    duration_ = d;
  }

  base::Result<csi::PublishedVolumes> operator()() {
    std::lock_guard lock(mu_);
    call_times_.push_back(clock_.Now());
    clock_.Advance(std::exchange(duration_, {}));
    cv_.notify_all();
    if (answers_.empty()) return base::Error("no scripted answer");
    base::Result<csi::PublishedVolumes> answer = std::move(answers_.front());
    answers_.pop_front();
    return answer;
  }

  bool AwaitCalls(size_t n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, kHandOffTimeout, [&] { return call_times_.size() >= n; });
  }
  std::vector<base::Clock::TimePoint> call_times() {
    std::lock_guard lock(mu_);
    return call_times_;
  }

 private:
  base::FakeClock& clock_;
  std::mutex mu_;  // guards everything below
  std::condition_variable cv_;
  std::deque<base::Result<csi::PublishedVolumes>> answers_;
  base::Clock::Duration duration_{};
  std::vector<base::Clock::TimePoint> call_times_;
};

// docs/attacher.md §5.7.
class ReconcilerTest : public ::testing::Test {
 protected:
  ReconcilerTest() {
    Add(pv_store_, MakeCsiPv("pv-1", "vol-1"));
    Add(csi_node_store_, MakeCsiNode("node-1", std::string(kDriver), "node-id-1"));
  }

  template <class T>
  static void Add(kube::Store<T>& store, T object) {
    store.Upsert(std::make_shared<const T>(std::move(object)));
  }
  void AddVa(std::string name, bool attached, std::string pv_name = "pv-1") {
    kube::VolumeAttachment va = MakeVa(std::move(name), std::move(pv_name));
    va.status.attached = attached;
    Add(va_store_, std::move(va));
  }

  // One pass against a driver that reports `published`.
  base::Status Reconcile(csi::PublishedVolumes published) {
    list_volumes_.Script(std::move(published));
    return reconciler_.ReconcileOnce();
  }

  base::FakeClock clock_;
  FakeHandler handler_{clock_};
  kube::Store<kube::VolumeAttachment> va_store_;
  kube::Store<kube::PersistentVolume> pv_store_;
  kube::Store<kube::CSINode> csi_node_store_;
  FakeListVolumes list_volumes_{clock_};
  std::mutex enqueued_mu_;
  std::vector<std::string> enqueued_;  // guarded by enqueued_mu_
  Reconciler reconciler_{std::string(kDriver),
                         handler_,
                         va_store_,
                         pv_store_,
                         csi_node_store_,
                         [this] { return list_volumes_(); },
                         [this](const std::string& name) {
                           std::lock_guard lock(enqueued_mu_);
                           enqueued_.push_back(name);
                         },
                         kPeriod,
                         clock_};
};

TEST_F(ReconcilerTest, AttachedButNotPublishedForcesSync) {
  AddVa("va-1", /*attached=*/true);
  ASSERT_TRUE(Reconcile({{"vol-1", {"some-other-node"}}}).ok());
  EXPECT_THAT(handler_.ForceSyncs(), ElementsAre("va-1"));
  EXPECT_THAT(enqueued_, ElementsAre("va-1"));
}

TEST_F(ReconcilerTest, AttachedButVolumeUnknownToDriverForcesSync) {
  AddVa("va-1", /*attached=*/true);
  ASSERT_TRUE(Reconcile({}).ok());
  EXPECT_THAT(handler_.ForceSyncs(), ElementsAre("va-1"));
  EXPECT_THAT(enqueued_, ElementsAre("va-1"));
}

TEST_F(ReconcilerTest, PublishedButNotAttachedForcesSync) {
  AddVa("va-1", /*attached=*/false);
  ASSERT_TRUE(Reconcile({{"vol-1", {"node-id-1"}}}).ok());
  EXPECT_THAT(handler_.ForceSyncs(), ElementsAre("va-1"));
  EXPECT_THAT(enqueued_, ElementsAre("va-1"));
}

TEST_F(ReconcilerTest, MatchingStateDoesNothing) {
  AddVa("attached", /*attached=*/true);
  AddVa("detached", /*attached=*/false, "pv-2");
  Add(pv_store_, MakeCsiPv("pv-2", "vol-2"));
  ASSERT_TRUE(Reconcile({{"vol-1", {"node-id-0", "node-id-1"}}, {"vol-2", {"node-id-9"}}}).ok());
  EXPECT_THAT(handler_.ForceSyncs(), IsEmpty());
  EXPECT_THAT(enqueued_, IsEmpty());
}

TEST_F(ReconcilerTest, NodeIdFallsBackToAnnotationWithoutCsiNode) {
  kube::VolumeAttachment va = MakeVa("va-1");
  va.spec.node_name = "gone-node";
  va.metadata.annotations = {{std::string(kNodeIdAnnotation), "annotated-id"}};
  va.status.attached = true;
  Add(va_store_, va);
  ASSERT_TRUE(Reconcile({{"vol-1", {"annotated-id"}}}).ok());
  EXPECT_THAT(handler_.ForceSyncs(), IsEmpty());
  ASSERT_TRUE(Reconcile({{"vol-1", {"node-id-1"}}}).ok());
  EXPECT_THAT(handler_.ForceSyncs(), ElementsAre("va-1"));
}

TEST_F(ReconcilerTest, NodeIdFallsBackToAnnotationWhenCsiNodeLacksDriver) {
  Add(csi_node_store_, MakeCsiNode("node-1", "other.csi.example.com", "other-id"));
  kube::VolumeAttachment va = MakeVa("va-1");
  va.metadata.annotations = {{std::string(kNodeIdAnnotation), "annotated-id"}};
  Add(va_store_, va);
  ASSERT_TRUE(Reconcile({{"vol-1", {"annotated-id"}}}).ok());
  EXPECT_THAT(handler_.ForceSyncs(), ElementsAre("va-1"));
}

TEST_F(ReconcilerTest, SkipsWhatItCannotCompare) {
  AddVa("other-driver", /*attached=*/true);
  kube::VolumeAttachment other = MakeVa("other-driver", "pv-1", "other.csi.example.com");
  other.status.attached = true;
  Add(va_store_, other);
  AddVa("pv-not-cached", /*attached=*/true, "pv-missing");
  kube::PersistentVolume untranslatable;
  untranslatable.metadata.name = "pv-untranslatable";
  untranslatable.spec.source = [&] {
    kube::AzureDiskVolumeSource v;
    v.disk_uri = "d";
    v.kind = "Shared";
    return v;
  }();
  Add(pv_store_, untranslatable);
  AddVa("untranslatable", /*attached=*/true, "pv-untranslatable");
  // Translated, but the node ID "node-id-1" cannot repair its handle.
  kube::PersistentVolume in_tree;
  in_tree.metadata.name = "pv-in-tree";
  in_tree.spec.source = [&] {
    kube::GCEPersistentDiskVolumeSource v;
    v.pd_name = "disk";
    return v;
  }();
  Add(pv_store_, in_tree);
  AddVa("in-tree", /*attached=*/true, "pv-in-tree");
  kube::VolumeAttachment inline_va = MakeVa("inline");
  inline_va.spec.source.persistent_volume_name.reset();
  inline_va.spec.source.inline_volume_spec = std::make_shared<const kube::PersistentVolumeSpec>();
  inline_va.status.attached = true;
  Add(va_store_, inline_va);
  kube::VolumeAttachment no_node_id = MakeVa("no-node-id");
  no_node_id.spec.node_name = "unknown-node";
  no_node_id.status.attached = true;
  Add(va_store_, no_node_id);

  ASSERT_TRUE(Reconcile({}).ok());
  EXPECT_THAT(handler_.ForceSyncs(), IsEmpty());
}

// docs/migration.md §6: the handle of a translated volume (an in-tree PV, or any
// inline spec) goes through RepairVolumeHandle before it is looked up; the
// handle of a CSI PV is compared as it is, whatever its driver.
struct RepairRuleCase {
  std::string name;
  kube::PersistentVolumeSource source;
  bool inline_spec;              // `source` is the VA's inline spec, not a PV's
  std::string published_handle;  // what ListVolumes reports on the VA's node
  bool want_force_sync;          // the VA is attached, so only a miss forces a sync
};

class ReconcilerRepairTest : public ReconcilerTest,
                             public ::testing::WithParamInterface<RepairRuleCase> {};

TEST_P(ReconcilerRepairTest, RepairsOnlyTranslatedHandles) {
  const RepairRuleCase& c = GetParam();
  const std::string node_id = "projects/bing/zones/us-central1-c/instances/boom";
  Add(csi_node_store_, MakeCsiNode("node-1", std::string(kDriver), node_id));
  kube::VolumeAttachment va = MakeVa("va", "pv-migration");
  va.status.attached = true;
  if (c.inline_spec) {
    va.spec.source.persistent_volume_name.reset();
    auto spec = std::make_shared<kube::PersistentVolumeSpec>();
    spec->source = c.source;
    va.spec.source.inline_volume_spec = std::move(spec);
  } else {
    kube::PersistentVolume pv = MakeCsiPv("pv-migration");
    pv.spec.source = c.source;
    Add(pv_store_, std::move(pv));
  }
  Add(va_store_, std::move(va));
  ASSERT_TRUE(Reconcile({{c.published_handle, {node_id}}}).ok());
  if (c.want_force_sync) {
    EXPECT_THAT(handler_.ForceSyncs(), ElementsAre("va"));
  } else {
    EXPECT_THAT(handler_.ForceSyncs(), IsEmpty());
  }
}

kube::PersistentVolumeSource GcePd() {
  kube::GCEPersistentDiskVolumeSource v;
  v.pd_name = "disk";
  return v;
}
kube::PersistentVolumeSource GceCsi() {
  kube::CSIPersistentVolumeSource v;
  v.driver = "pd.csi.storage.gke.io";
  v.volume_handle = "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/disk";
  return v;
}
kube::PersistentVolumeSource Ebs() {
  kube::AWSElasticBlockStoreVolumeSource v;
  v.volume_id = "aws://us-east-1a/vol-1";
  return v;
}

const std::string kUnrepaired = "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/disk";
const std::string kRepaired = "projects/bing/zones/us-central1-c/disks/disk";

INSTANTIATE_TEST_SUITE_P(
    RepairVolumeHandle, ReconcilerRepairTest,
    ::testing::Values(
        RepairRuleCase{"InTreeGcePdPvIsRepaired", GcePd(), false, kRepaired, false},
        RepairRuleCase{"InTreeGcePdPvUnrepairedHandleIsAMiss", GcePd(), false, kUnrepaired, true},
        RepairRuleCase{"InTreeEbsPvHandleIsKept", Ebs(), false, "vol-1", false},
        RepairRuleCase{"CsiPvOfTheGceDriverIsNotRepaired", GceCsi(), false, kUnrepaired, false},
        RepairRuleCase{"CsiPvOfTheGceDriverRepairedHandleIsAMiss", GceCsi(), false, kRepaired,
                       true},
        RepairRuleCase{"InlineSpecIsRepaired", GceCsi(), true, kRepaired, false},
        RepairRuleCase{"InlineSpecUnrepairedHandleIsAMiss", GceCsi(), true, kUnrepaired, true}),
    [](const auto& info) { return info.param.name; });

TEST_F(ReconcilerTest, ListVolumesErrorChangesNothing) {
  AddVa("va-1", /*attached=*/true);
  list_volumes_.Script(base::Error::Grpc(14, "failed to list volumes: unavailable"));
  base::Status status = reconciler_.ReconcileOnce();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "failed to list volumes: unavailable");
  EXPECT_THAT(handler_.ForceSyncs(), IsEmpty());
  EXPECT_THAT(enqueued_, IsEmpty());
}

TEST_F(ReconcilerTest, RunRetriesOnePeriodAfterEachPassEnds) {
  AddVa("va-1", /*attached=*/false);
  list_volumes_.Script(base::Error::Grpc(4, "failed to list volumes: timeout"));
  list_volumes_.Script(csi::PublishedVolumes{{"vol-1", {"node-id-1"}}});
  list_volumes_.TakeTime(5s);  // the failing first pass is slow
  std::jthread run([this](std::stop_token stop) { reconciler_.Run(stop); });

  ASSERT_TRUE(list_volumes_.AwaitCalls(1));
  clock_.AwaitSleepers(1);  // first pass over
  EXPECT_THAT(handler_.ForceSyncs(), IsEmpty());
  clock_.Advance(kPeriod);
  ASSERT_TRUE(list_volumes_.AwaitCalls(2));
  clock_.AwaitSleepers(1);  // second pass over
  run.request_stop();
  run.join();

  base::Clock::TimePoint start{};
  EXPECT_THAT(list_volumes_.call_times(), ElementsAre(start, start + 5s + kPeriod));
  EXPECT_THAT(handler_.ForceSyncs(), ElementsAre("va-1"));
  EXPECT_THAT(enqueued_, ElementsAre("va-1"));
}

}  // namespace
}  // namespace attacher
