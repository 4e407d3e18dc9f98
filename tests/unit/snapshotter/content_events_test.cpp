// docs/snapshots.md §3.4 "Error status" and step 1, §3.8: the Warning
// Events a content or group content gets, with upstream's reasons, on the
// object itself.
#include "snapshotter/content_events.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <string_view>
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

// The three Warnings of `Content`, recorded: "<reason>: <message>" each,
// checked to be on the content (`kind`, `api_version`) from the sidecar.
template <class Content>
std::vector<std::string> RecordThree(std::string_view kind, std::string_view api_version,
                                     const std::string& create_message,
                                     const std::string& check_message,
                                     std::string_view delete_message) {
  RecordingEventApi api;
  base::FakeClock clock;
  kube::EventRecorderOptions options;
  options.component = "csi-snapshotter csi.example.com";
  kube::EventRecorder recorder(api, clock, options);
  RecordedContentEventsOf<Content> events(recorder);
  Content content;
  content.metadata.name = "content-1";
  content.metadata.uid = "uid-1";

  events.CreationFailed(content, create_message);
  events.CheckAndUpdateFailed(content, check_message);
  events.DeleteFailed(content, delete_message);
  recorder.Drain();

  std::vector<std::string> seen;
  for (const kube::Event& event : api.created()) {
    EXPECT_EQ(event.type, "Warning");
    EXPECT_EQ(event.involved_object.kind, kind);
    EXPECT_EQ(event.involved_object.api_version, api_version);
    EXPECT_EQ(event.involved_object.name, "content-1");
    EXPECT_EQ(event.source.component, "csi-snapshotter csi.example.com");
    seen.push_back(event.reason + ": " + event.message);
  }
  return seen;
}

TEST(RecordedContentEvents, WarningsOnTheContentWithUpstreamReasons) {
  EXPECT_THAT(
      RecordThree<kube::VolumeSnapshotContent>(
          "VolumeSnapshotContent", "snapshot.storage.k8s.io/v1", "Failed to create snapshot: x",
          "Failed to check and update snapshot content: y", kFailedToDeleteMessage),
      ::testing::ElementsAre("SnapshotCreationFailed: Failed to create snapshot: x",
                             "SnapshotContentCheckandUpdateFailed: Failed to check and "
                             "update snapshot content: y",
                             "SnapshotDeleteError: Failed to delete snapshot"));
}

// docs/snapshots.md §3.8: the group reasons, on the group content.
TEST(RecordedGroupContentEvents, WarningsOnTheGroupContentWithUpstreamReasons) {
  EXPECT_THAT(
      RecordThree<kube::VolumeGroupSnapshotContent>(
          "VolumeGroupSnapshotContent", "groupsnapshot.storage.k8s.io/v1",
          "Failed to create group snapshot: x",
          "Failed to check and update group snapshot content: y", kFailedToDeleteGroupMessage),
      ::testing::ElementsAre(
          "GroupSnapshotCreationFailed: Failed to create group snapshot: x",
          "GroupSnapshotContentCheckandUpdateFailed: Failed to check and update group "
          "snapshot content: y",
          "GroupSnapshotDeleteError: Failed to delete group snapshot"));
}

}  // namespace
}  // namespace snapshotter
