// The attacher end to end with a real CSI driver (the Kubernetes e2e mock
// driver) and the real API server: docs/attacher.md §5.3-§5.6.
#include <gtest/gtest.h>

#include "attacher/names.h"
#include "tests/integration/attacher/attacher_fixture.h"

namespace attacher_it {
namespace {

bool HasFinalizer(const kube::ObjectMeta& meta, const std::string& finalizer) {
  for (const auto& f : meta.finalizers) {
    if (f == finalizer) return true;
  }
  return false;
}

TEST_F(AttacherTest, AttachSetsFinalizersAnnotationAndStatusThenDetachRemovesThem) {
  const std::string driver = "mock-attach.csi.example.com";
  const std::string fin = attacher::FinalizerFor(driver);
  StartMockDriver(driver, 1);
  CreateCsiNode("node-attach", driver, driver);
  CreatePv(CsiPv("pv-attach", driver, "4"));
  StartAttacher({"-v=6"});  // -v=6 logs every API request
  CreateVa("va-attach", driver, "pv-attach", "node-attach");

  auto va = AwaitVa("va-attach", Attached);
  ASSERT_TRUE(va && va->status.attached) << "VA never attached";
  EXPECT_TRUE(HasFinalizer(va->metadata, fin));
  ASSERT_TRUE(va->metadata.annotations.contains("csi.alpha.kubernetes.io/node-id"));
  EXPECT_EQ(va->metadata.annotations.find("csi.alpha.kubernetes.io/node-id")->second, driver);
  EXPECT_FALSE(va->status.attachment_metadata.empty()) << "publish_context not saved";
  auto pv = admin_->Get<kube::PersistentVolume>("", "pv-attach");
  ASSERT_TRUE(pv.ok());
  EXPECT_TRUE(HasFinalizer(pv->metadata, fin));
  EXPECT_TRUE(MockDriverHasPublished(socket(), "4", driver)) << "driver does not say attached";

  ASSERT_TRUE(admin_->Delete<kube::VolumeAttachment>("", "va-attach").ok());
  EXPECT_TRUE(AwaitVaGone("va-attach")) << "VA not released after detach";
  EXPECT_FALSE(MockDriverHasPublished(socket(), "4", driver)) << "driver still says attached";
  // Removing our (last) finalizer deleted the VA, so no status patch follows
  // the detach (README, deliberate differences).
  const std::string log = AttacherLog();
  const std::size_t detached = log.find(R"("Detached" VolumeAttachment="va-attach")");
  ASSERT_NE(detached, std::string::npos) << log;
  const std::string after_detach = log.substr(detached);
  const std::string va_url = R"(url="/apis/storage.k8s.io/v1/volumeattachments/va-attach)";
  EXPECT_EQ(CountOccurrences(after_detach, R"("Response" verb="PATCH" )" + va_url + "\""), 1)
      << "the finalizer removal";
  EXPECT_EQ(CountOccurrences(after_detach, R"("Response" verb="PATCH" )" + va_url + "/status"), 0)
      << after_detach;

  ASSERT_TRUE(admin_->Delete<kube::PersistentVolume>("", "pv-attach").ok());
  EXPECT_TRUE(AwaitPvGone("pv-attach")) << "PV finalizer not removed once no VA uses it";
}

TEST_F(AttacherTest, PvFinalizerStaysWhileAVolumeAttachmentStillUsesIt) {
  const std::string driver = "mock-pvfin.csi.example.com";
  StartMockDriver(driver, 1);
  CreateCsiNode("node-pvfin", driver, driver);
  CreatePv(CsiPv("pv-pvfin", driver, "4"));
  StartAttacher();
  CreateVa("va-pvfin", driver, "pv-pvfin", "node-pvfin");
  ASSERT_TRUE(AwaitVa("va-pvfin", Attached)->status.attached);

  ASSERT_TRUE(admin_->Delete<kube::PersistentVolume>("", "pv-pvfin").ok());
  EXPECT_FALSE(AwaitPvGone("pv-pvfin", std::chrono::seconds(3)))
      << "PV lost its finalizer while attached";
  ASSERT_TRUE(admin_->Delete<kube::VolumeAttachment>("", "va-pvfin").ok());
  // The detach needs the PV, which is terminating but still there.
  EXPECT_TRUE(AwaitVaGone("va-pvfin"));
  EXPECT_TRUE(AwaitPvGone("pv-pvfin"));
}

TEST_F(AttacherTest, DriverWithoutAttachCapabilityUsesTrivialHandler) {
  const std::string driver = "mock-noattach.csi.example.com";
  StartMockDriver(driver, 1, /*attach=*/false);
  CreatePv(CsiPv("pv-trivial", driver, "4"));
  StartAttacher();
  CreateVa("va-trivial", driver, "pv-trivial", "node-trivial");
  auto va = AwaitVa("va-trivial", Attached);
  ASSERT_TRUE(va && va->status.attached);
  EXPECT_TRUE(va->metadata.finalizers.empty()) << "trivial handler must not add finalizers";
  auto pv = admin_->Get<kube::PersistentVolume>("", "pv-trivial");
  ASSERT_TRUE(pv.ok());
  EXPECT_TRUE(pv->metadata.finalizers.empty());
}

TEST_F(AttacherTest, OtherDriversVolumeAttachmentsAreLeftAlone) {
  const std::string driver = "mock-mine.csi.example.com";
  StartMockDriver(driver, 1);
  CreateCsiNode("node-other", driver, driver);
  CreatePv(CsiPv("pv-other", "someone-else.example.com", "4"));
  StartAttacher();
  CreateVa("va-other", "someone-else.example.com", "pv-other", "node-other");
  auto va = AwaitVa("va-other", Attached, std::chrono::seconds(3));
  ASSERT_TRUE(va.has_value());
  EXPECT_FALSE(va->status.attached);
  EXPECT_TRUE(va->metadata.finalizers.empty());
}

}  // namespace
}  // namespace attacher_it
