// CSI migration end to end (docs/migration.md §6): in-tree PVs are attached
// through their CSI translation, a rolled-back migration releases the PV
// finalizer, and an untranslatable PV fails with a clear attachError. The
// fault-injecting driver plays pd.csi.storage.gke.io.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "attacher/names.h"
#include "tests/integration/attacher/attacher_fixture.h"

namespace attacher_it {
namespace {

using namespace std::chrono_literals;

constexpr const char* kPdDriver = "pd.csi.storage.gke.io";
constexpr const char* kPdNodeId = "projects/p/zones/us-central1-a/instances/node";

kube::PersistentVolume GcePv(const std::string& name, const std::string& zone_label) {
  kube::PersistentVolume pv;
  pv.metadata.name = name;
  if (!zone_label.empty()) {
    pv.metadata.labels = {{"topology.kubernetes.io/zone", zone_label}};
  }
  pv.spec.capacity_storage = "1Gi";
  pv.spec.access_modes = {"ReadWriteOnce"};
  pv.spec.persistent_volume_reclaim_policy = "Retain";
  pv.spec.source = [&] {
    kube::GCEPersistentDiskVolumeSource v;
    v.pd_name = name + "-disk";
    return v;
  }();
  return pv;
}

class MigrationTest : public AttacherTest {
 protected:
  void Prepare(const std::string& suffix) {
    StartFaultDriver(kPdDriver, kPdNodeId);
    node_ = "node-" + suffix;
    CreateCsiNode(node_, kPdDriver, kPdNodeId);
  }
  // The request of the first ControllerPublishVolume the driver recorded.
  nlohmann::json PublishRequest() {
    std::ifstream in(state_file());
    nlohmann::json state = nlohmann::json::parse(in, nullptr, false);
    if (state.is_discarded() || !state.contains("calls")) return nullptr;
    for (const auto& call : state["calls"]) {
      if (call.value("method", "") == "ControllerPublishVolume") return call["request"];
    }
    return nullptr;
  }
  std::string node_;
};

TEST_F(MigrationTest, InTreeGcePdIsPublishedWithTranslatedHandleAndAttributes) {
  Prepare("gce");
  CreatePv(GcePv("pv-gce", "us-central1-a"));
  StartAttacher();
  CreateVa("va-gce", kPdDriver, "pv-gce", node_);

  auto va = AwaitVa("va-gce", [](const kube::VolumeAttachment& va) { return va.status.attached; });
  ASSERT_TRUE(va && va->status.attached) << AttacherLog();
  nlohmann::json request = PublishRequest();
  ASSERT_FALSE(request.is_null());
  EXPECT_EQ(request["volume_id"], "projects/UNSPECIFIED/zones/us-central1-a/disks/pv-gce-disk");
  EXPECT_EQ(request["volume_context"], nlohmann::json({{"partition", ""}}));
  auto pv = admin_->Get<kube::PersistentVolume>("", "pv-gce");
  ASSERT_TRUE(pv.ok()) << pv.error().message;
  EXPECT_TRUE(std::holds_alternative<kube::GCEPersistentDiskVolumeSource>(pv->spec.source))
      << "the stored PV must stay in-tree";
  EXPECT_NE(std::find(pv->metadata.finalizers.begin(), pv->metadata.finalizers.end(),
                      attacher::FinalizerFor(kPdDriver)),
            pv->metadata.finalizers.end());
}

TEST_F(MigrationTest, RolledBackInTreePvWithoutVaLosesOurFinalizer) {
  Prepare("rollback");
  kube::PersistentVolume pv = GcePv("pv-rollback", "us-central1-a");
  pv.metadata.finalizers = {attacher::FinalizerFor(kPdDriver)};
  pv.metadata.has_finalizers_field = true;
  CreatePv(pv);
  StartAttacher();

  auto deadline = std::chrono::steady_clock::now() + 60s;
  bool released = false;
  while (!released && std::chrono::steady_clock::now() < deadline) {
    auto current = admin_->Get<kube::PersistentVolume>("", "pv-rollback");
    ASSERT_TRUE(current.ok()) << current.error().message;
    released = current->metadata.finalizers.empty();
    if (!released) std::this_thread::sleep_for(100ms);
  }
  EXPECT_TRUE(released) << AttacherLog();
}

TEST_F(MigrationTest, UntranslatablePvEndsInAttachError) {
  Prepare("bad");
  CreatePv(GcePv("pv-bad", "us-central1__us-central1-c"));
  StartAttacher();
  CreateVa("va-bad", kPdDriver, "pv-bad", node_);

  auto va = AwaitVa("va-bad", [](const kube::VolumeAttachment& va) {
    return va.status.attach_error.has_value();
  });
  ASSERT_TRUE(va && va->status.attach_error) << AttacherLog();
  EXPECT_EQ(va->status.attach_error->message,
            "failed to translate in tree pv to CSI: failed to get region from zones: zone in "
            "unexpected format, expected: {locale}-{region}-{zone}, got: us-central1");
  EXPECT_FALSE(va->status.attached);
  EXPECT_TRUE(PublishRequest().is_null()) << "the driver must not be called";
}

}  // namespace
}  // namespace attacher_it
