// docs/snapshots.md §3.4 "Error status" and step 1: the Warning Events a
// content gets, with upstream's reasons, on the content itself.
#include "snapshotter/content_events.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>
#include <vector>

#include "base/clock.h"

namespace snapshotter {
namespace {

class RecordingEventApi final : public kube::EventApi {
 public:
  base::Status Create(const kube::Event& event) override {
    std::lock_guard lock(mu_);
    created_.push_back(event);
    return base::Status::Ok();
  }
  base::Status Patch(std::string_view, std::string_view, const std::string&) override {
    return base::Status::Ok();
  }
  std::vector<kube::Event> created() const {
    std::lock_guard lock(mu_);
    return created_;
  }

 private:
  mutable std::mutex mu_;
  std::vector<kube::Event> created_;
};

TEST(RecordedContentEvents, WarningsOnTheContentWithUpstreamReasons) {
  RecordingEventApi api;
  base::FakeClock clock;
  kube::EventRecorderOptions options;
  options.component = "csi-snapshotter csi.example.com";
  kube::EventRecorder recorder(api, clock, options);
  RecordedContentEvents events(recorder);
  kube::VolumeSnapshotContent content;
  content.metadata.name = "content-1";
  content.metadata.uid = "uid-1";

  events.CreationFailed(content, "Failed to create snapshot: x");
  events.CheckAndUpdateFailed(content, "Failed to check and update snapshot content: y");
  events.DeleteFailed(content, kFailedToDeleteMessage);
  recorder.Drain();

  std::vector<kube::Event> created = api.created();
  ASSERT_EQ(created.size(), 3u);
  std::vector<std::string> seen;
  for (const kube::Event& event : created) {
    EXPECT_EQ(event.type, "Warning");
    EXPECT_EQ(event.involved_object.kind, "VolumeSnapshotContent");
    EXPECT_EQ(event.involved_object.api_version, "snapshot.storage.k8s.io/v1");
    EXPECT_EQ(event.involved_object.name, "content-1");
    EXPECT_EQ(event.source.component, "csi-snapshotter csi.example.com");
    seen.push_back(event.reason + ": " + event.message);
  }
  EXPECT_THAT(seen, ::testing::ElementsAre(
                        "SnapshotCreationFailed: Failed to create snapshot: x",
                        "SnapshotContentCheckandUpdateFailed: Failed to check and update "
                        "snapshot content: y",
                        "SnapshotDeleteError: Failed to delete snapshot"));
}

}  // namespace
}  // namespace snapshotter
