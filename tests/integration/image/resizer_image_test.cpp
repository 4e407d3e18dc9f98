// Our csi-resizer from its image root (chroot, user 65532), against the real
// control plane and the e2e mock driver: a bound claim asked to grow gets
// the driver's new size in its PV and its status.
#include <gtest/gtest.h>
#include <sched.h>

#include <set>

#include "tests/integration/image/image_root.h"
#include "tests/integration/image/process_facts.h"
#include "tests/integration/resizer/resizer_fixture.h"

namespace image_it {
namespace {

class ResizerImageTest : public resizer_it::ResizerTest {
 protected:
  static void SetUpTestSuite() {
    ResizerTest::SetUpTestSuite();
    if (plane_) OpenToImageUser(plane_->work_dir());  // kubeconfigs, CA
  }
};

TEST_F(ResizerImageTest, ResizerFromItsImageRootExpandsAVolume) {
  const ImageRoot* image = ImageRoot::Get(RESIZER_BIN);
  ASSERT_NE(image, nullptr);
  const std::string driver = "resize-image.csi.example.com";
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(driver));
  OpenToImageUser(plane_->work_dir());  // the driver's socket
  const std::string volume = CreateDriverVolume("resize-image", int64_t{1} << 30);
  ASSERT_NO_FATAL_FAILURE(CreateExpandableClass("class-resize-image", driver));
  ASSERT_TRUE(CreateBoundClaim({.name = "claim-resize-image",
                                .storage_class = "class-resize-image",
                                .driver = driver,
                                .volume_handle = volume})
                  .is_object());
  const std::string launcher = image->Launcher({plane_->work_dir()});
  auto* resizer = StartResizerOf(
      {.name = "Image", .binary = [launcher] { return base::Result<std::string>(launcher); }});
  ASSERT_NE(resizer, nullptr);
  ASSERT_TRUE(RequestSize("claim-resize-image", "2Gi").ok());

  nlohmann::json done = AwaitClaim("claim-resize-image", [](const nlohmann::json& c) {
    return resizer_it::StatusString(c, "/status/capacity/storage") == "2Gi";
  });
  EXPECT_EQ(resizer_it::StatusString(done, "/status/capacity/storage"), "2Gi")
      << done.dump(2) << "\n"
      << resizer->LogTail(30);
  EXPECT_EQ(resizer_it::StatusString(GetPv("pv-claim-resize-image"), "/spec/capacity/storage"),
            "2Gi");
  EXPECT_EQ(RealUserOf(resizer->pid()), kImageUser);
  // Unprivileged, every thread runs as SCHED_BATCH (docs/design.md §5).
  EXPECT_EQ(ThreadPoliciesOf(resizer->pid()), std::set<int>{SCHED_BATCH});
}

}  // namespace
}  // namespace image_it
