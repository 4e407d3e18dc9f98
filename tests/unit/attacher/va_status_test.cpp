// VolumeAttachment status patches: errors are stamped like metav1.Time (RFC
// 3339, UTC, whole seconds), and a patch that would change nothing is empty.
#include "attacher/va_status.h"

#include <gtest/gtest.h>

namespace attacher {
namespace {

using namespace std::chrono_literals;

TEST(VaStatus, ErrorTimeIsRfc3339UtcSeconds) {
  auto now = std::chrono::system_clock::time_point(1700000000s + 987ms);
  kube::VolumeError error = MakeVolumeError("boom", now, 4);
  EXPECT_EQ(error.time, "2023-11-14T22:13:20Z");
  EXPECT_EQ(error.message, "boom");
  EXPECT_EQ(error.error_code, 4);
}

// The cache may lag behind the server (an error saved by the previous attempt
// not yet seen), so the final state is written even when the cache agrees.
TEST(VaStatus, FinalStateIsAlwaysWrittenEvenWhenTheCacheAgrees) {
  kube::VolumeAttachment va;
  va.status.attached = true;
  va.status.attachment_metadata["lun"] = "3";
  EXPECT_EQ(MarkAttachedPatch(va, {{"lun", "3"}}),
            R"({"status":{"attachError":null,"attached":true}})");

  kube::VolumeAttachment detached;
  EXPECT_EQ(MarkDetachedPatch(detached), R"({"status":{"attached":false,"detachError":null}})");
}

TEST(VaStatus, ChangedAttachmentMetadataIsMergedPerKey) {
  kube::VolumeAttachment va;
  va.status.attached = true;
  va.status.attachment_metadata["lun"] = "3";
  va.status.attachment_metadata["old"] = "x";
  EXPECT_EQ(MarkAttachedPatch(va, {{"lun", "4"}}),
            R"({"status":{"attachError":null,"attached":true,)"
            R"("attachmentMetadata":{"lun":"4","old":null}}})");
}

TEST(VaStatus, DetachErrorLeavesAttachErrorAlone) {
  kube::VolumeAttachment va;
  va.status.attach_error = kube::VolumeError{"t0", "attach failed", 3};
  EXPECT_EQ(DetachErrorPatch(va, kube::VolumeError{"t1", "detach failed", std::nullopt}),
            R"({"status":{"detachError":{"message":"detach failed","time":"t1"}}})");
}

TEST(VaStatus, ClearAttachErrorTouchesNothingElseAndIsEmptyWithoutError) {
  kube::VolumeAttachment va;
  va.status.attached = true;
  va.status.attachment_metadata["lun"] = "3";
  va.status.attach_error = kube::VolumeError{"t0", "stale", std::nullopt};
  EXPECT_EQ(ClearAttachErrorPatch(va), R"({"status":{"attachError":null}})");
  va.status.attach_error.reset();
  EXPECT_EQ(ClearAttachErrorPatch(va), "");
}

}  // namespace
}  // namespace attacher
