// The #706 backlog gauges' arithmetic (README "Metrics").
#include "attacher/va_census.h"

#include <gtest/gtest.h>

#include <memory>

#include "kube/api/meta_time.h"

namespace attacher {
namespace {

using std::chrono::seconds;
using std::chrono::system_clock;

constexpr char kCensusDriver[] = "d.example.com";
constexpr char kFinalizer[] = "external-attacher/d-example-com";

kube::Store<kube::VolumeAttachment>::Ptr Va(bool attached, std::string created,
                                            std::string deleted = "", bool finalizer = false) {
  auto va = std::make_shared<kube::VolumeAttachment>();
  va->spec.attacher = kCensusDriver;
  va->status.attached = attached;
  va->metadata.creation_timestamp = std::move(created);
  va->metadata.deletion_timestamp = std::move(deleted);
  if (finalizer) va->metadata.finalizers.push_back(kFinalizer);
  return va;
}

TEST(VolumeAttachmentCensusTest, CountsStatesAndAgesTheOldestPending) {
  const auto now = *kube::ParseMetaTime("2026-01-01T00:10:00Z");
  auto failed = Va(false, "2026-01-01T00:00:00Z");
  std::const_pointer_cast<kube::VolumeAttachment>(failed)->status.attach_error =
      kube::VolumeError{"t", "boom", std::nullopt};
  auto other = Va(false, "2025-01-01T00:00:00Z");
  std::const_pointer_cast<kube::VolumeAttachment>(other)->spec.attacher = "other";
  VolumeAttachmentCensus c = TakeVolumeAttachmentCensus(
      {Va(true, "2026-01-01T00:00:00Z"), Va(false, "2026-01-01T00:09:00Z"), failed,
       Va(true, "2025-01-01T00:00:00Z", "2026-01-01T00:08:00Z", true),
       Va(true, "2025-01-01T00:00:00Z", "2025-06-01T00:00:00Z", false), other},
      kCensusDriver, kFinalizer, now);
  EXPECT_EQ(c.attached, 1);
  EXPECT_EQ(c.attaching, 1);
  EXPECT_EQ(c.failed, 1);
  EXPECT_EQ(c.detaching, 1);
  EXPECT_DOUBLE_EQ(c.oldest_pending_seconds, 600);  // the failed attach, created 10 min ago
}

TEST(VolumeAttachmentCensusTest, NothingPendingIsZero) {
  VolumeAttachmentCensus c = TakeVolumeAttachmentCensus(
      {Va(true, "2026-01-01T00:00:00Z")}, kCensusDriver, kFinalizer, system_clock::now());
  EXPECT_EQ(c.oldest_pending_seconds, 0);
}

}  // namespace
}  // namespace attacher
