// The csi-attacher from its image root (chroot, user 65532) against the real
// control plane and the e2e mock driver: a real attach and detach.
#include <gtest/gtest.h>
#include <sched.h>

#include <set>

#include "tests/integration/attacher/attacher_fixture.h"
#include "tests/integration/image/image_root.h"
#include "tests/integration/image/process_facts.h"

namespace image_it {
namespace {

using attacher_it::Attached;

class AttacherImageTest : public attacher_it::AttacherTest {
 protected:
  static void SetUpTestSuite() {
    AttacherTest::SetUpTestSuite();
    if (plane_) OpenToImageUser(plane_->work_dir());  // kubeconfig, CA
  }
  void SetUp() override {
    AttacherTest::SetUp();
    image_ = ImageRoot::Get(ATTACHER_BIN);
    ASSERT_NE(image_, nullptr);
  }
  std::string AttacherBinary() const override { return image_->Launcher({plane_->work_dir()}); }

  const ImageRoot* image_ = nullptr;
};

TEST_F(AttacherImageTest, AttacherFromItsImageRootAttachesAndDetachesAVolume) {
  const std::string driver = "mock-image.csi.example.com";
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(driver, 1));  // volume "4"
  OpenToImageUser(work_dir());                          // the driver's socket
  CreateCsiNode("node-image", driver, driver);
  CreatePv(attacher_it::CsiPv("pv-image", driver, "4"));
  ASSERT_NO_FATAL_FAILURE(StartAttacher());
  CreateVa("va-image", driver, "pv-image", "node-image");

  auto va = AwaitVa("va-image", Attached);
  ASSERT_TRUE(va && va->status.attached) << "VA never attached:\n" << AttacherLog();
  EXPECT_TRUE(attacher_it::MockDriverHasPublished(socket(), "4", driver));
  EXPECT_EQ(RealUserOf(attacher_->pid()), kImageUser);
  // Unprivileged, every thread runs as SCHED_BATCH (docs/design.md §5).
  EXPECT_EQ(ThreadPoliciesOf(attacher_->pid()), std::set<int>{SCHED_BATCH});

  ASSERT_TRUE(admin_->Delete<kube::VolumeAttachment>("", "va-image").ok());
  EXPECT_TRUE(AwaitVaGone("va-image")) << "VA not released after detach";
  EXPECT_FALSE(attacher_it::MockDriverHasPublished(socket(), "4", driver));
}

}  // namespace
}  // namespace image_it
